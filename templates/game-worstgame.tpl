{{%AUTOESCAPE context="HTML"}}
<div class="wg">
<p class="wg-headline">{{headline}}</p>

{{#can_shout}}<div class="wg-shout">{{#shout_actions}}{{>move_form}}{{/shout_actions}}</div>
<p class="wg-hint">Gleichstand: wer zuerst ruft, gewinnt – auch wer nicht gleichauf liegt.</p>{{/can_shout}}

{{#my_window}}<section class="wg-react" aria-label="Reaktion">
<p>{{#window}}Reaktionsfenster: spiele eine Karte (die Knöpfe unter deinen Karten) oder passe. Wer nicht rechtzeitig antwortet, passt.{{/window}}{{#final}}Letzte Runde: spiele noch Karten oder sag „fertig“.{{/final}}
{{#has_deadline}}<span class="countdown" role="timer">Noch <span data-countdown="{{deadline_seconds}}">{{deadline_seconds}}</span>&nbsp;s.</span>{{/has_deadline}}</p>
<div class="wg-actions">{{#actions}}{{>move_form}}{{/actions}}</div>
</section>{{/my_window}}

<section class="wg-middle" aria-label="Tischmitte">
<h3>Mitte</h3>
<div class="wg-pot">
<span class="wg-label">Topf</span>
<span class="wg-chips" aria-hidden="true">{{#kitty_stack}}<span class="wg-chip{{#black}} wg-black{{/black}}"></span>{{/kitty_stack}}</span>
<span class="wg-count">{{kitty}} Chips<span class="wg-vh"> ({{kitty_black}} schwarze zu 5, {{kitty_red}} rote)</span></span>
</div>
<p class="wg-piles">Nachziehstapel: {{deck_count}} · Ablagestapel: {{discard_count}}{{#has_discard}}, oben: {{discard_top}}{{/has_discard}} · aus dem Spiel: {{removed_count}}</p>
{{#has_attack}}<p class="wg-attack" aria-label="Angriff">
<strong>Angriff:</strong> {{attacker_seat_name}} fordert {{attack_demand}} von {{attack_target_seat_name}}{{#doubled}} (doppelt oder nichts ×{{attack_doubled}}){{/doubled}}.
{{#attack_rolled}}Würfel: <span class="wg-die">{{attack_die}}</span>, zählt {{attack_total}} – gewinnt bei mehr als {{attack_demand}}.{{/attack_rolled}}
</p>{{/has_attack}}
{{#has_stack}}<div class="wg-stack">
<h4>Gespielte Karten – die oberste wirkt zuerst</h4>
<ol reversed>
{{#stack}}<li class="wg-card wg-pending{{#top}} wg-top{{/top}}"><span class="wg-name">{{name}}</span> <span class="wg-by">von {{by_seat_name}}{{#has_target}} → {{target_seat_name}}{{/has_target}}{{#has_target_card}}: {{target_card}}{{/has_target_card}}{{#has_face}} (Würfel: {{face}}){{/has_face}}</span>
<span class="wg-text">{{text}}</span></li>{{/stack}}
</ol>
</div>{{/has_stack}}
</section>

{{#has_hand}}<section class="wg-mine" aria-label="Deine Karten">
{{#attacking}}<div class="wg-attack-pick">
<h3>Angreifen</h3>
<p class="wg-hint">Wähle, wen du angreifst und wie viele Chips du forderst: würfelst du mehr, bekommst du sie.</p>
{{#targets}}<div class="wg-target"><span class="wg-who">{{seat_name}} <small>({{chips}} Chips)</small></span>
<span class="wg-demands" role="group" aria-label="Forderung an {{seat_name}}">{{#demands}}{{>move_form}}{{/demands}}</span></div>{{/targets}}
</div>{{/attacking}}
{{#my_turn}}<div class="wg-actions">{{#actions}}{{>move_form}}{{/actions}}</div>{{/my_turn}}
{{#discarding}}<div class="wg-discard"><h3>Abwerfen</h3><p class="wg-hint">Am Ende des Zuges höchstens 7 Karten: wirf ab, bis es 7 sind.</p><div class="wg-actions">{{#discards}}{{>move_form}}{{/discards}}</div></div>{{/discarding}}
<h3>Deine Hand <small>({{my_hand_count}} Karten)</small></h3>
<ul class="wg-hand">
{{#hand}}<li class="wg-card{{#playable}} wg-playable{{/playable}}{{#stays}} wg-stays{{/stays}}">
<span class="wg-name">{{name}}</span> <span class="wg-theme">{{theme}}</span>
<span class="wg-text">{{text}}</span>
{{#playable}}<span class="wg-plays">{{#plays}}{{>move_form}}{{/plays}}</span>{{/playable}}
</li>{{/hand}}
</ul>
</section>{{/has_hand}}

<section class="wg-players">
<h3>Mitspieler</h3>
<ul class="wg-seats">
{{#seats}}<li class="wg-seat{{#is_me}} wg-me{{/is_me}}{{#out}} wg-out{{/out}}{{#is_active}} wg-active{{/is_active}}">
<p class="wg-who">{{seat_name}}{{#is_me}} (du){{/is_me}}
{{#is_active}}<span class="wg-badge">am Zug</span>{{/is_active}}{{#waiting}}<span class="wg-badge">kann reagieren</span>{{/waiting}}{{#out}}<span class="wg-badge">ausgeschieden</span>{{/out}}{{#winner}}<span class="wg-badge wg-win">gewinnt</span>{{/winner}}</p>
<p class="wg-purse"><span class="wg-chips" aria-hidden="true">{{#chips_stack}}<span class="wg-chip{{#black}} wg-black{{/black}}"></span>{{/chips_stack}}</span>
<span class="wg-count">{{chips}} Chips<span class="wg-vh"> ({{chips_black}} schwarze zu 5, {{chips_red}} rote)</span> · {{hand_count}} Handkarten</span></p>
{{#inplay}}<p class="wg-card wg-stays wg-small"><span class="wg-name">{{name}}</span>{{#has_chips_on}} <span class="wg-oncard">{{on_card}} Chips darauf</span>{{/has_chips_on}} <span class="wg-text">{{text}}</span></p>{{/inplay}}
{{#open_hand}}<p class="wg-open">Offene Hand (Kiebitz): {{#open_cards}}<span class="wg-card wg-small"><span class="wg-name">{{name}}</span></span> {{/open_cards}}</p>{{/open_hand}}
</li>{{/seats}}
</ul>
</section>

{{#has_hand}}<details class="wg-listen">
<summary>Wann ich gefragt werde</summary>
<p class="wg-hint">Ein Reaktionsfenster öffnet sich nur bei den Schritten, die du hier wählst. Die Wahl hängt nicht von deinen Karten ab und verrät den anderen nichts. Für Partien über Tage: nur Angriff, Wurf und Karte.</p>
<ul>
{{#listen}}<li>{{kind}}: {{#on}}ja{{/on}}{{#off}}nein{{/off}} {{>move_form}}</li>{{/listen}}
</ul>
</details>{{/has_hand}}

<section class="wg-log">
<h3>Zuletzt</h3>
<ol>{{#log}}<li>{{text}}</li>{{/log}}</ol>
</section>

<details class="wg-rules">
<summary>Kurzregeln und Regelentscheidungen</summary>
<ul>
<li>Jede Person hat 4 Karten und 12 Chips (schwarz = 5, rot = 1). Im Zug: 1 Chip Einsatz in den Topf, eine Karte ziehen, dann jemanden angreifen: 1 bis 6 Chips fordern, der Server würfelt, mehr als die Forderung gewinnt sie (oder was das Ziel hat). Danach Karten spielen und den Zug beenden; am Ende höchstens 7 Karten.</li>
<li>Karten gehen vor die Regeln. Gespielt wird in deinem Zug und in jedem Reaktionsfenster, das für dich offen ist: nach Einsatz, Ziehen, Angriff, Wurf, Zugende und nach jeder Karte der anderen. Gespielte Karten wirken, wenn das Fenster schließt, die zuletzt gespielte zuerst. Das Fenster schließt, wenn alle gepasst haben, spätestens nach {{react_seconds}} s.</li>
<li>BLEIBT-LIEGEN-Karten liegen vor einer Person, bis eine Karte sie entfernt oder ihre eigene Bedingung; Chips darauf kommen dann in den Topf. Reicht der Topf nicht für alle, wird er Chip für Chip ab der Person am Zug im Uhrzeigersinn verteilt.</li>
<li>Hat am Ende eines Zuges jemand keine Chips mehr, scheidet er aus (seine Karten verlassen das Spiel). Alle anderen spielen noch einmal Karten, dann gewinnt, wer die meisten Chips hat, und nimmt den Topf. Bei Gleichstand gewinnt, wer zuerst „Worst Game Ever!“ ruft – das kann jede Person sein, die noch dabei ist.</li>
<li>Die erste Partie beginnt eine ausgeloste Person, jede weitere, wer zuletzt gewonnen hat.</li>
</ul>
</details>
</div>
