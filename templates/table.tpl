{{%AUTOESCAPE context="HTML"}}
{{>header}}
<section class="table-head">
<h1>{{game_title}} <small>[[Tisch {{table_id}}]]</small></h1>
<p class="meta">
{{#tournament}}<a href="{{url}}">{{name}}</a>: [[Runde {{round}}, Tisch {{number}}.]]{{/tournament}}
{{#is_open}}[[Wartet auf Mitspieler: {{seats_taken}} von {{nseats}} Plätzen besetzt.]]{{/is_open}}
{{#is_playing}}{{#multi_party}}[[Partie {{party_number}} von {{nparties}}.]]{{/multi_party}}{{/is_playing}}
{{#watching}}<span class="badge">[[Du schaust zu]]</span>{{/watching}}
{{#is_finished}}{{#multi_party}}[[Das Match ist beendet.]]{{/multi_party}}{{#single_party}}[[Die Partie ist beendet.]]{{/single_party}}{{/is_finished}}
{{#closed_idle}}[[Geschlossen, weil zu lange niemand gezogen hat: es zählen die beendeten Partien.]]{{/closed_idle}}
{{#closed_broken}}[[Geschlossen, weil der Spielstand beschädigt war: die letzte Partie zählt als unentschieden, es zählen die gespielten Partien.]]{{/closed_broken}}
{{#has_opts}}<span class="opts">{{#opts}}<span class="opt">{{label}}: {{text}}</span> {{/opts}}</span>{{/has_opts}}
</p>
</section>
{{>party_end}}
{{#is_finished}}{{#can_rematch}}<form method="post" action="{{rematch_url}}" class="rematch">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit" class="primary">[[Noch ein Match mit denselben Leuten]]</button>
<small>[[Ein neuer Tisch mit demselben Spiel, denselben Einstellungen und demselben Tempo; alle anderen werden eingeladen.]]</small>
</form>{{/can_rematch}}
{{#has_rematch}}<p class="note rematch">[[Das nächste Match: <a href="{{next_table_url}}">Tisch {{next_table_id}}</a> – dort mit einem Klick mitspielen; freie Plätze kann ein Bot übernehmen.]]</p>{{/has_rematch}}{{/is_finished}}

<div id="spiel" class="now">
{{#note}}<p class="note {{kind}}" role="alert">{{#stale}}<strong>[[Nicht übernommen:]]</strong> {{/stale}}{{#rejected}}<strong>[[Nicht erlaubt:]]</strong> {{/rejected}}{{#refused}}<strong>[[Abgelehnt:]]</strong> {{/refused}}{{text}}</p>{{/note}}
{{#banner}}<p class="banner {{status_kind}}" id="your-turn" role="status">{{status_text}}{{#countdown}} <span class="countdown" role="timer">{{#running}}[[Noch <span data-countdown="{{seconds}}">{{seconds}}</span>&nbsp;s.]]{{/running}}{{#renewed}}[[Neue Frist: noch <span data-countdown="{{seconds}}">{{seconds}}</span>&nbsp;s.]]{{/renewed}}</span>{{/countdown}}</p>{{/banner}}
{{>status_bar}}
{{#reload_link}}<noscript><p class="reload">[[<a href="{{invite_path}}#spiel">Neu laden</a> – diese Seite lädt sich nicht selbst neu, solange du am Zug bist.]]</p></noscript>{{/reload_link}}
</div>

<section class="board" aria-labelledby="board-title">
<h2 id="board-title" class="sr-only">[[Spielbrett]]</h2>
{{>game}}
</section>
{{#replay_links}}<p class="replay-links">{{#has_since}}<a href="{{since_url}}">[[Seit deinem letzten Zug: Schritt für Schritt]]</a>{{/has_since}}
{{#has_replays}}[[Nachspielen:]] {{#replays}}<a href="{{url}}">{{#multi_party}}[[Partie {{number}}]]{{/multi_party}}{{#single_party}}[[die Partie]]{{/single_party}}</a> {{/replays}}{{/has_replays}}</p>{{/replay_links}}

{{#show_typed}}
<section class="card moves" id="moves">
<h2>[[Zug als Text]]</h2>
{{#can_act}}
<details class="movelist">
<summary>[[Alle erlaubten Züge in der Zugsprache]]</summary>
{{#moves}}{{>move_form}}{{/moves}}
</details>
{{/can_act}}
<form method="post" action="{{move_url}}" class="typed">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="v" value="{{v}}">
<label for="move-text">[[Zug eintippen]]</label>
<input id="move-text" name="move" value="{{typed}}" maxlength="160" autocomplete="off" autocapitalize="off" spellcheck="false">
<button type="submit">[[Senden]]</button>
</form>
</section>
{{/show_typed}}

<section class="card chat" id="chat" aria-labelledby="chat-title">
<h2 id="chat-title">[[Chat]]</h2>
{{#has_chat_note}}<p class="note" role="alert"><strong>[[Nicht gesendet:]]</strong> {{chat_note}}</p>{{/has_chat_note}}
{{#can_chat}}<form method="post" action="{{chat_url}}" class="chat-form">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="chat-text">[[Nachricht an den Tisch]]</label>
<input id="chat-text" name="text" value="{{chat_text}}" maxlength="{{chat_max}}" required autocomplete="off">
<button type="submit">[[Senden]]</button>
</form>
<noscript><p class="chat-hint">[[Ohne JavaScript lädt sich die Seite alle paar Sekunden neu, solange du nicht dran bist.]] <a href="{{chat_write_url}}">[[Zum Schreiben anhalten]]</a></p></noscript>{{/can_chat}}
{{#chat_readonly}}<p class="chat-hint">[[Schreiben kann, wer an diesem Tisch sitzt; lesen kann jeder.]]</p>{{/chat_readonly}}
{{#chat_login_needed}}<p class="chat-hint">[[Schreiben kann, wer an diesem Tisch sitzt und angemeldet ist; lesen kann jeder.]]</p>{{/chat_login_needed}}
{{#has_chat}}<ol class="chat-log">
{{#chat}}<li{{#mine}} class="mine"{{/mine}}><span class="chat-meta"><strong class="chat-author">{{author}}</strong> <time>{{time}}</time></span> <span class="chat-text">{{text}}</span>
{{#can_mute}}<form method="post" action="{{chat_url}}" class="inline chat-mute"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="mute" value="{{author_id}}"><button type="submit" title="[[Nachrichten von {{author}} nicht mehr zeigen (nur für dich)]]">[[stumm schalten]]</button></form>{{/can_mute}}</li>
{{/chat}}</ol>{{/has_chat}}
{{#chat_empty}}<p class="chat-hint">[[Noch keine Nachrichten.]]</p>{{/chat_empty}}
{{#has_chat_muted}}<p class="chat-muted">[[Für dich stumm geschaltet:]]
{{#chat_muted}}<form method="post" action="{{chat_url}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="unmute" value="{{user_id}}">{{name}} <button type="submit">[[wieder zeigen]]</button></form>
{{/chat_muted}}</p>{{/has_chat_muted}}
</section>

<section class="card seats">
<h2>[[Plätze]]</h2>
<ol class="seats">
{{#seats}}<li class="seat{{#me}} me{{/me}}{{#turn}} turn{{/turn}}{{#acting}} acting{{/acting}}{{#empty}} empty{{/empty}}">
<span class="seat-no">{{number}}</span>
<span class="seat-name">{{#empty}}[[frei]]{{/empty}}{{#has_profile}}<a href="{{profile_url}}">{{name}}</a>{{/has_profile}}{{#no_profile}}{{name}}{{/no_profile}}{{#me}} [[(du)]]{{/me}}</span>
{{#bot}}<span class="badge bot">[[Bot]]</span>{{/bot}}{{#bot_plays}}<span class="badge bot">[[ein Bot spielt]]</span>{{/bot_plays}}{{#resigned}}<span class="badge bot">[[aufgegeben – ein Bot spielt]]</span>{{/resigned}}{{#timed_out}}<span class="badge bot">[[Zeit abgelaufen – ein Bot spielt]]</span>{{/timed_out}}
{{#turn}}<span class="badge turn">[[am Zug]]</span>{{/turn}}
{{#next}}<span class="badge">[[als Nächstes am Zug]]</span>{{/next}}
{{#acting_out_of_turn}}<span class="badge window">[[kann noch eingreifen]]</span>{{/acting_out_of_turn}}
<span class="tally"><span class="score" title="[[Punkte in dieser Partie]]">{{score:x-points}}</span>
{{#has_clock}}<span class="clock{{#clock_running}} running{{/clock_running}}{{#clock_low}} low{{/clock_low}}" title="[[Zeit auf der Uhr dieses Platzes]]"><span aria-hidden="true">◷</span> <span class="sr-only">[[Uhr:]]</span> {{#clock_static}}{{clock}}{{/clock_static}}{{#clock_countdown}}<span data-countdown="{{clock_seconds}}">{{clock_seconds}}</span>&nbsp;s{{/clock_countdown}}{{#clock_running}} <small>[[läuft]]</small>{{/clock_running}}</span>{{/has_clock}}</span>
{{#has_timeouts}}<span class="badge window">[[{{timeouts}}× Zeit überschritten]]</span>{{/has_timeouts}}
{{#has_expel_votes}}<span class="badge">[[{{expel_votes}} von {{expel_needed}} für einen Bot]]</span>{{/has_expel_votes}}
{{#claimed}}<span class="badge">[[{{claimer}} übernimmt ab der nächsten Partie]]</span>{{/claimed}}
{{#can_claim}}<form method="post" action="{{seat_url}}" class="inline"><input type="hidden" name="csrf" value="{{claim_csrf}}"><input type="hidden" name="act" value="claim"><input type="hidden" name="seat" value="{{seat}}"><button type="submit">[[Ab der nächsten Partie selbst spielen]]</button></form>{{/can_claim}}
{{#can_expel}}<form method="post" action="{{seat_url}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="act" value="expel"><input type="hidden" name="seat" value="{{seat}}"><button type="submit">[[Bot für diesen Platz]]</button></form>{{/can_expel}}
</li>{{/seats}}
</ol>
<p class="speed">[[Tempo: {{speed}}]]</p>
{{#is_open}}
{{>table_invites}}
<div class="actions">
{{#can_join}}<form method="post" action="{{join_url}}" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit" class="primary">[[Mitspielen]]</button>
</form>{{/can_join}}
{{#can_leave}}<form method="post" action="{{leave_url}}" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit">[[Platz freigeben]]</button>
</form>{{/can_leave}}
{{#can_add_bot}}<form method="post" action="{{bot_url}}" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="level" value="greedy">
<button type="submit">[[Bot dazusetzen (gierig)]]</button>
</form>
<form method="post" action="{{bot_url}}" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="level" value="random">
<button type="submit">[[Bot dazusetzen (zufällig)]]</button>
</form>{{/can_add_bot}}
{{#login_needed}}<a class="button primary" href="/login?next={{table_url}}">[[Anmelden, um mitzuspielen]]</a>
<a class="button" href="/register?next={{table_url}}">[[Neu hier? Registrieren]]</a>{{/login_needed}}
</div>
{{/is_open}}
{{#can_autopass}}<form method="post" action="{{seat_url}}" class="autopass">
<input type="hidden" name="csrf" value="{{csrf}}">
{{#my_autopass}}<p>[[Du passt jedes Fenster (Zwischenwurf, Reaktion) automatisch.]]
<input type="hidden" name="act" value="autopass_off">
<button type="submit">[[Fenster wieder selbst beantworten]]</button></p>{{/my_autopass}}
{{#autopass_off}}<p><input type="hidden" name="act" value="autopass_on">
<button type="submit">[[Fenster immer automatisch passen]]</button>
<small>[[Gut für Partien über Tage: niemand wartet bis zur Frist auf dich. Die Wahl hängt nicht von deinen Karten ab und verrät nichts.]]</small></p>{{/autopass_off}}
</form>{{/can_autopass}}
{{#is_playing}}{{#seated}}
{{#my_bot_plays}}<p class="note">[[Ein Bot spielt gerade deinen Platz.]]</p>{{/my_bot_plays}}
{{#i_resigned}}<p class="note">[[Du hast aufgegeben: ein Bot spielt deinen Platz zu Ende, dein Ergebnis zählt als letztes.]]</p>{{/i_resigned}}
<div class="actions">
{{#can_hand_over}}<form method="post" action="{{seat_url}}" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="act" value="bot">
<button type="submit">[[Einen Bot für mich spielen lassen]]</button>
</form>{{/can_hand_over}}
{{#can_take_back}}<form method="post" action="{{seat_url}}" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="act" value="back">
<button type="submit" class="primary">[[Platz zurücknehmen]]</button>
</form>{{/can_take_back}}
{{#can_resign}}<details class="resign"><summary>[[Aufgeben …]]</summary>
<form method="post" action="{{seat_url}}" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="act" value="resign">
<button type="submit">[[Ja, aufgeben: ein Bot spielt weiter, mein Ergebnis zählt als letztes]]</button>
</form></details>{{/can_resign}}
</div>
{{/seated}}{{/is_playing}}
</section>

{{#is_open}}
<section class="card rules-summary" aria-labelledby="rules-summary-title">
<h2 id="rules-summary-title">[[So wird {{game_title}} gespielt]]</h2>
<p class="tagline">{{game_tagline}}</p>
<p>{{game_summary}}</p>
</section>
{{/is_open}}

{{#has_parties}}
<section class="card match">
<h2>{{#multi_party}}[[Match]]{{/multi_party}}{{#single_party}}[[Ergebnis]]{{/single_party}}</h2>
<div class="scroll">
<table class="scores">
<thead><tr><th>[[Partie]]</th>{{#seats}}<th>{{name}}</th>{{/seats}}</tr></thead>
<tbody>
{{#parties}}<tr><td>{{number}}</td>{{#scores}}<td>{{score:x-minus}}</td>{{/scores}}</tr>{{/parties}}
</tbody>
{{#multi_party}}<tfoot><tr><th>[[Summe]]</th>{{#seats}}<td>{{total:x-minus}}</td>{{/seats}}</tr></tfoot>{{/multi_party}}
</table>
</div>
{{#is_finished}}
<h3>[[Endstand]]</h3>
<ol class="standings">
{{#standings}}<li{{#winner}} class="winner"{{/winner}}><span class="place">{{place}}.</span> {{name}} – {{total:x-points}}{{#winner}} <span class="badge win">[[Sieg]]</span>{{/winner}}</li>{{/standings}}
</ol>
{{/is_finished}}
</section>
{{/has_parties}}

{{#has_logs}}
<section class="card logs">
<h2>[[Zugprotokoll beendeter Partien]]</h2>
{{#party_logs}}
<details>
<summary>[[Partie {{number}}]]</summary>
<ol class="steps">
{{#steps}}<li>{{#tick}}<em>[[Frist abgelaufen]]</em>{{/tick}}{{#clock}}<em>[[Die Uhr läuft]]</em>{{/clock}}{{#by_seat}}{{seat_name}}: <code>{{text}}</code>{{/by_seat}}</li>{{/steps}}
</ol>
</details>
{{/party_logs}}
</section>
{{/has_logs}}
{{>footer}}
