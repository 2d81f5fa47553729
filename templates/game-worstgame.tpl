{{%AUTOESCAPE context="HTML"}}
<div class="wg{{#over}} wg-over{{/over}}">
<p class="wg-headline" role="status">{{headline}}</p>

{{#can_shout}}<section class="wg-shout" aria-label="[[Gleichstand]]">
{{#shout_actions}}{{>move_form}}{{/shout_actions}}
<p class="wg-hint">[[Wer zuerst ruft, gewinnt – auch wer nicht gleichauf liegt.]]{{#has_deadline}} <span class="countdown" role="timer">[[Noch <span data-countdown="{{deadline_seconds}}">{{deadline_seconds}}</span>&nbsp;s.]]</span>{{/has_deadline}}</p>
</section>{{/can_shout}}

{{#my_window}}{{#window}}<section class="wg-react" aria-label="[[Reaktionsfenster]]">
<p>[[Spiele eine Karte – die Knöpfe stehen unter <a href="#wg-hand">deinen Karten</a> – oder passe. Wer bis zum Ende der Frist nicht antwortet, passt.]]{{#has_deadline}} <span class="countdown" role="timer">[[Noch <span data-countdown="{{deadline_seconds}}">{{deadline_seconds}}</span>&nbsp;s.]]</span>{{/has_deadline}}</p>
<div class="wg-actions">{{#actions}}{{>move_form}}{{/actions}}</div>
</section>{{/window}}{{#final}}<section class="wg-react" aria-label="[[Letzte Runde]]">
<p>[[Letzte Runde: spiele noch Karten (unter <a href="#wg-hand">deinen Karten</a>) oder sag „fertig“.]]{{#has_deadline}} <span class="countdown" role="timer">[[Noch <span data-countdown="{{deadline_seconds}}">{{deadline_seconds}}</span>&nbsp;s.]]</span>{{/has_deadline}}</p>
<div class="wg-actions">{{#actions}}{{>move_form}}{{/actions}}</div>
</section>{{/final}}{{/my_window}}

<section class="wg-middle" aria-labelledby="wg-middle-h">
<h2 id="wg-middle-h">[[Tischmitte]]</h2>
<div class="wg-piles">
<p class="wg-pile wg-kitty"><span class="wg-label">[[Topf]]</span>
<span class="wg-chips" aria-hidden="true">{{#kitty_stack}}<span class="wg-chip{{#black}} wg-black{{/black}}"></span>{{/kitty_stack}}</span>
<span class="wg-num">{{kitty}}</span><span class="wg-vh"> [[Chips: {{kitty_black}} schwarze zu je 5 und {{kitty_red}} rote]]</span></p>
<p class="wg-pile"><span class="wg-back" aria-hidden="true"></span><span><span class="wg-label">[[Nachziehstapel]]</span> {{deck_count}}</span></p>
<p class="wg-pile"><span class="wg-label">[[Ablage]]</span> {{discard_count}}{{#has_discard}}<span class="wg-top-discard"><span class="wg-vh">, [[oben:]]</span> {{discard_top}}</span>{{/has_discard}}</p>
<p class="wg-pile wg-gone"><span class="wg-label">[[Aus dem Spiel]]</span> {{removed_count}}</p>
</div>
{{#has_attack}}<div class="wg-attack">
<h3>[[Angriff in diesem Zug]]</h3>
<p>[[{{attacker_seat_name}} greift {{attack_target_seat_name}} an, Forderung: <strong>{{attack_demand}}</strong>]]{{#doubled}} · [[doppelt oder nichts ×{{attack_doubled}}]]{{/doubled}}</p>
{{#attack_rolled}}<p><span class="wg-die" aria-hidden="true">{{attack_die}}</span> [[Würfel: {{attack_die}}, zählt <strong>{{attack_total}}</strong> – der Angriff gelingt bei mehr als {{attack_demand}}.]]{{#attack_settled}} [[Entschieden, siehe „Zuletzt“.]]{{/attack_settled}}</p>{{/attack_rolled}}
</div>{{/has_attack}}
{{#has_stack}}<div class="wg-stack">
<h3>[[Stapel: die oberste Karte wirkt zuerst]]</h3>
<ol class="wg-pending">
{{#stack}}<li class="wg-card{{#top}} wg-top{{/top}}{{#last}} last{{/last}}">
<p class="wg-card-head"><span class="wg-name">{{name}}</span>{{#top}} <span class="wg-tag">[[oben – wirkt zuerst]]</span>{{/top}}{{#last}} <span class="last-mark">{{last_text}}</span>{{/last}}</p>
<p class="wg-by">[[von {{by_seat_name}}]]{{#has_target}} [[gegen {{target_seat_name}}]]{{/has_target}}{{#has_target_card}} ({{target_card}}){{/has_target_card}}{{#has_face}}, [[nennt {{face}}]]{{/has_face}}</p>
<p class="wg-text">{{text}}</p>
</li>{{/stack}}
</ol>
</div>{{/has_stack}}
</section>

{{#has_hand}}<section class="wg-mine" aria-labelledby="wg-hand">
{{#attacking}}<div class="wg-attack-pick">
<h2>[[Angreifen]]</h2>
<p class="wg-hint">[[Wen greifst du an, und wie viele Chips forderst du? Der Server würfelt: mehr als die Forderung gewinnt sie.]]</p>
{{#targets}}<div class="wg-target" role="group" aria-label="[[Forderung an {{seat_name}}]]">
<p class="wg-who">{{seat_name}} <span class="wg-small-note">([[Chips: {{chips}}]])</span></p>
<div class="wg-demands">{{#demands}}{{>move_form}}{{/demands}}</div>
</div>{{/targets}}
</div>{{/attacking}}
{{#my_turn}}<div class="wg-actions">{{#actions}}{{>move_form}}{{/actions}}</div>{{/my_turn}}
{{#discarding}}<div class="wg-discard" role="group" aria-label="[[Abwerfen]]">
<h2>[[Abwerfen]]</h2>
<p class="wg-hint">[[Am Ende des Zuges hast du höchstens 7 Karten: wirf ab, bis es 7 sind.]]</p>
<div class="wg-actions">{{#discards}}{{>move_form}}{{/discards}}</div>
</div>{{/discarding}}
<h2 id="wg-hand">[[Deine Hand]] <span class="wg-small-note">({{my_hand_count}})</span></h2>
<ul class="wg-hand">
{{#hand}}<li class="wg-card{{#playable}} wg-playable{{/playable}}{{#stays}} wg-stays{{/stays}}">
<h3 class="wg-card-head"><span class="wg-name">{{name}}</span> <span class="wg-theme">{{theme}}</span></h3>
<p class="wg-text">{{text}}</p>
{{#playable}}<div class="wg-plays" role="group" aria-label="[[{{name}} spielen]]">{{#plays}}{{>move_form}}{{/plays}}</div>{{/playable}}
</li>{{/hand}}
</ul>
</section>{{/has_hand}}

<section class="wg-players" aria-labelledby="wg-players-h">
<h2 id="wg-players-h">[[Mitspieler]]</h2>
<ul class="wg-seats">
{{#seats}}<li class="wg-seat{{#is_me}} wg-me{{/is_me}}{{#out}} wg-out{{/out}}{{#is_active}} wg-active{{/is_active}}">
<h3 class="wg-who">{{seat_name}}{{#is_me}} ([[du]]){{/is_me}}
{{#is_active}}<span class="wg-badge wg-turn">[[am Zug]]</span>{{/is_active}}{{#waiting}}<span class="wg-badge">{{#window}}[[kann noch eingreifen]]{{/window}}{{#final}}[[spielt noch]]{{/final}}{{#shout}}[[darf rufen]]{{/shout}}</span>{{/waiting}}{{#out}}<span class="wg-badge">[[ausgeschieden]]</span>{{/out}}{{#tied}}<span class="wg-badge">[[gleichauf]]</span>{{/tied}}{{#winner}}<span class="wg-badge wg-win">[[gewinnt]]</span>{{/winner}}</h3>
<p class="wg-purse"><span class="wg-chips" aria-hidden="true">{{#chips_stack}}<span class="wg-chip{{#black}} wg-black{{/black}}"></span>{{/chips_stack}}</span>
<span>[[Chips:]] <strong class="wg-num">{{chips}}</strong><span class="wg-vh"> ([[{{chips_black}} schwarze zu je 5, {{chips_red}} rote]])</span> · [[Handkarten: {{hand_count}}]]</span></p>
{{#inplay}}<p class="wg-card wg-stays wg-small{{#last}} last{{/last}}"><span class="wg-vh">[[Liegt aus:]] </span><span class="wg-name">{{name}}</span>{{#last}} <span class="last-mark">{{last_text}}</span>{{/last}}{{#has_chips_on}} <span class="wg-oncard">[[Chips darauf: {{on_card}}]]</span>{{/has_chips_on}} <span class="wg-text">{{text}}</span></p>{{/inplay}}
{{#open_hand}}<div class="wg-open"><p>[[Offene Hand:]]</p>
<ul>{{#open_cards}}<li class="wg-card wg-small"><span class="wg-name">{{name}}</span> <span class="wg-text">{{text}}</span></li>{{/open_cards}}</ul></div>{{/open_hand}}
</li>{{/seats}}
</ul>
</section>

{{#has_hand}}<details class="wg-listen">
<summary>[[Wann ich gefragt werde]]</summary>
<p class="wg-hint">[[Ein Reaktionsfenster öffnet sich für dich nur nach den Schritten, die du hier wählst; nach den anderen passt du von selbst. Die Wahl hängt nicht von deinen Karten ab und verrät niemandem etwas. Für Partien über Tage: nur Angriff, Wurf und Karte.]]</p>
<ul>
{{#listen}}<li><span class="wg-kind">{{kind}}:</span> {{#on}}[[ich werde gefragt]]{{/on}}{{#off}}[[ich passe von selbst]]{{/off}} {{>move_form}}</li>{{/listen}}
</ul>
</details>{{/has_hand}}

<section class="wg-log" aria-labelledby="wg-log-h">
<h2 id="wg-log-h">[[Zuletzt]] <span class="wg-small-note">([[das Neueste oben]])</span></h2>
<ul>{{#log}}<li>{{text}}</li>{{/log}}</ul>
</section>

<details class="wg-rules">
<summary>[[Kurzregeln und Regelentscheidungen]]</summary>
<ul>
<li>[[Alle haben 4 Karten und 12 Chips (schwarz = 5, rot = 1). Im eigenen Zug: 1 Chip Einsatz in den Topf, eine Karte ziehen, dann jemanden angreifen: 1 bis 6 Chips fordern; der Server würfelt, mehr als die Forderung gewinnt sie (oder so viele, wie das Ziel hat). Danach noch Karten spielen und den Zug beenden; am Ende des Zuges höchstens 7 Karten.]]</li>
<li>[[Karten gehen vor die Regeln. Gespielt wird im eigenen Zug und in jedem Reaktionsfenster, das für dich offen ist: nach Einsatz, Ziehen, Angriff, Wurf und Zugende und nach jeder Karte der anderen. Gespielte Karten kommen auf den Stapel und wirken, wenn das Fenster schließt: die zuletzt gespielte zuerst. Das Fenster schließt, wenn alle gepasst haben, spätestens nach {{react_seconds}}&nbsp;s.]]</li>
<li>[[Karten mit BLEIBT LIEGEN liegen vor einer Person, bis eine Karte sie entfernt oder ihre eigene Bedingung eintritt; Chips darauf kommen dann in den Topf. Reicht der Topf nicht für alle, wird er Chip für Chip ab der Person am Zug im Uhrzeigersinn verteilt.]]</li>
<li>[[Hat am Ende eines Zuges jemand keine Chips mehr, scheidet er aus (seine Karten verlassen das Spiel). Alle anderen spielen noch einmal Karten, dann gewinnt, wer die meisten Chips hat, und nimmt den Topf. Bei Gleichstand gewinnt, wer zuerst „Worst Game Ever!“ ruft – das darf jede Person, die noch dabei ist. Ruft niemand rechtzeitig, teilen sich die Gleichstehenden Sieg und Topf.]]</li>
<li>[[Die erste Partie beginnt eine ausgeloste Person, jede weitere, wer zuletzt gewonnen hat.]]</li>
</ul>
</details>
</div>
