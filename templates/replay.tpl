{{%AUTOESCAPE context="HTML"}}
{{>header}}
<section class="table-head replay-head">
<h1>{{game_title}} <small>[[Tisch {{table_id}}]]</small></h1>
<p class="meta">{{#replay}}[[Wiederholung]]{{#multi_party}} · [[Partie {{party_number}} von {{nparties}}]]{{/multi_party}}{{/replay}}{{#since}}[[Seit deinem letzten Zug]]{{/since}}
{{#party_running}}<span class="badge">[[Die Partie läuft: du siehst nur, was dein Platz damals sah.]]</span>{{/party_running}}
<a href="{{table_url}}">[[Zurück zum Tisch]]</a>{{#has_export}} · <a href="{{export_url}}" type="text/plain">[[Als Text (Zugsprache)]]</a>{{/has_export}}</p>
</section>

{{#replay}}{{#multi_party}}<p class="replay-parties">[[Partien:]] {{#party_links}}{{#current}}<strong>{{number}}</strong>{{/current}}{{#other}}<a href="{{url}}">{{number}}</a>{{/other}} {{/party_links}}</p>{{/multi_party}}{{/replay}}
<nav class="replay-nav card" aria-label="[[Schritte]]" id="schritt">
{{#never_moved}}<p class="note">[[Du hast in dieser Partie noch nicht gezogen: hier steht alles seit dem Austeilen.]]</p>{{/never_moved}}
{{#nothing_since}}<p class="note">[[Seit deinem letzten Zug ist nichts geschehen, was du sehen kannst.]]</p>{{/nothing_since}}
<p class="replay-where">[[Schritt {{shown_frame}} von {{shown_frames}}]]</p>
<p class="replay-links">
{{#has_prev}}<a href="{{first_url}}#schritt" rel="first">[[« Anfang]]</a> <a href="{{prev_url}}#schritt" rel="prev">[[‹ zurück]]</a>{{/has_prev}}
{{#at_first}}<span class="off">[[« Anfang]]</span> <span class="off">[[‹ zurück]]</span>{{/at_first}}
{{#has_next}}<a href="{{next_url}}#schritt" rel="next">[[weiter ›]]</a> <a href="{{last_url}}#schritt" rel="last">[[Ende »]]</a>{{/has_next}}
{{#at_last}}<span class="off">[[weiter ›]]</span> <span class="off">[[Ende »]]</span>{{/at_last}}
</p>
{{#step}}<p class="replay-step">{{#deal}}[[Ausgeteilt.]]{{/deal}}{{#tick}}<em>[[Frist abgelaufen]]</em>{{/tick}}{{#clock}}<em>[[Die Uhr läuft]]</em>{{/clock}}{{#by_seat}}{{seat_name}}{{#mine}} [[(du)]]{{/mine}}: {{#text_shown}}<code>{{text}}</code>{{/text_shown}}{{#text_hidden}}<em>[[ein Zug]]</em>{{/text_hidden}}{{/by_seat}}{{#has_time}} <small><time>{{time}}</time></small>{{/has_time}}</p>{{/step}}
{{#has_step_log}}<ul class="replay-log">{{#step_log}}<li>{{text}}</li>{{/step_log}}</ul>{{/has_step_log}}
{{#can_choose_view}}<p class="replay-views">[[Ansicht:]] {{#viewpoints}}{{#current}}<strong>{{/current}}<a href="{{url}}#schritt">{{#spectator}}[[Zuschauer]]{{/spectator}}{{name}}</a>{{#current}}</strong>{{/current}} {{/viewpoints}}</p>{{/can_choose_view}}
</nav>

<section class="board replay-board" aria-labelledby="board-title">
<h2 id="board-title" class="sr-only">[[Spielbrett]]</h2>
<fieldset disabled class="replay-frame">
{{>game}}
</fieldset>
</section>

<section class="card seats">
<h2>[[Punkte an dieser Stelle]]</h2>
<ol class="seats">
{{#seats}}<li class="seat{{#me}} me{{/me}}{{#viewer}} turn{{/viewer}}"><span class="seat-no">{{number}}</span> <span class="seat-name">{{name}}{{#me}} [[(du)]]{{/me}}</span> <span class="score">{{score:x-minus}}</span></li>{{/seats}}
</ol>
</section>
{{>footer}}
