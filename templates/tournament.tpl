{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>{{name}}</h1>
{{#note}}<p class="note rejected" role="alert">{{text}}</p>{{/note}}
<section class="card tournament-rule">
<p><span class="badge {{status}}">{{status_text}}</span>{{#started}} · [[Runde {{round}} von {{rounds_total}}]]{{/started}}</p>
{{#my_table}}<p class="attention"><a class="button primary" href="{{url}}">[[Zu meinem Tisch]]</a></p>{{/my_table}}
<dl class="facts">
<dt>[[Spiel]]</dt><dd>{{game_title}}{{#has_opts}}<ul class="plain opts">{{#opts}}<li>{{label}}: {{text}}</li>{{/opts}}</ul>{{/has_opts}}</dd>
<dt>[[Format]]</dt><dd>{{format}}{{#elimination}}: [[die besten {{advance}} jedes Tisches kommen weiter]]{{/elimination}}, {{rounds_text}}</dd>
<dt>[[Tische]]</dt><dd>[[{{seats}} Plätze]]{{#smaller_tables}}, [[wenn es nicht aufgeht auch {{min_seats}}]]{{/smaller_tables}}</dd>
<dt>[[Punkte nach Platz]]</dt><dd>{{points}}; [[ein Freilos zählt {{bye_points}}]]</dd>
<dt>[[Gleichstand]]</dt><dd>{{#tb_party}}[[Partiepunkte]]{{#tb_then_sb}}, [[dann Gegnerwertung]]{{/tb_then_sb}}{{/tb_party}}{{#tb_sb}}[[Gegnerwertung]]{{#tb_then_party}}, [[dann Partiepunkte]]{{/tb_then_party}}{{/tb_sb}} · [[sonst geteilter Platz]]</dd>
<dt>[[Tempo]]</dt><dd>{{speed}}</dd>
<dt>[[Start]]</dt><dd>[[{{starts}} (Anmeldung bis {{register_until}})]]</dd>
<dt>[[Ausrichter]]</dt><dd>{{#organiser_link}}<a href="{{url}}">{{organiser}}</a>{{/organiser_link}}</dd>
</dl>
{{#can_register}}<form method="post" action="{{action_url}}/register" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">[[<button type="submit" class="primary">Anmelden</button>]]</form>{{/can_register}}
{{#login_to_register}}<p>[[<a href="/login">Anmelden</a>, um mitzuspielen.]]</p>{{/login_to_register}}
{{#registered}}<p>[[Du bist dabei.]]</p>{{/registered}}
{{#can_withdraw}}<form method="post" action="{{action_url}}/withdraw" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">[[Vom Turnier abmelden]]</button></form>{{/can_withdraw}}
{{#can_start}}<form method="post" action="{{action_url}}/start" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">[[Jetzt starten]]</button></form>{{/can_start}}
</section>
{{#has_standings}}
<section class="card standings">
<h2>[[Tabelle]]</h2>
<div class="scroll">
<table class="scores">
<thead><tr><th scope="col">[[Platz]]</th><th scope="col" class="name">[[Name]]</th><th scope="col">[[Punkte]]</th><th scope="col">[[Partie&shy;punkte]]</th><th scope="col"><abbr title="[[Gegnerwertung: die Punkte der Gegner, die man hinter sich ließ (halb bei Gleichstand)]]">[[GW]]</abbr></th><th scope="col" class="more">[[Tische]]</th><th scope="col" class="more">[[Freilose]]</th></tr></thead>
<tbody>
{{#standings}}<tr class="{{#me}}me{{/me}}{{#gone}} gone{{/gone}}"><td>{{place}}</td><td class="name"><a href="{{profile_url}}">{{name}}</a>{{#state}} <span class="badge">{{text}}</span>{{/state}}{{#can_remove}} <form method="post" action="{{action_url}}/withdraw" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="name" value="{{name}}"><button type="submit" class="link">[[entfernen]]</button></form>{{/can_remove}}</td><td><strong>{{points:x-minus}}</strong></td><td>{{party_points:x-minus}}</td><td>{{sb}}</td><td class="more">{{played}}</td><td class="more">{{byes}}</td></tr>
{{/standings}}
{{#my_standing}}<tr class="me"><td>{{place}}</td><td class="name"><a href="{{profile_url}}">{{name}}</a>{{#state}} <span class="badge">{{text}}</span>{{/state}}</td><td><strong>{{points}}</strong></td><td>{{party_points}}</td><td>{{sb}}</td><td class="more">{{played}}</td><td class="more">{{byes}}</td></tr>
{{/my_standing}}
</tbody>
</table>
</div>
{{#standings_pager}}<nav class="pager" aria-label="[[Seiten der Tabelle]]">{{#standings_pages}}{{#gap}}<span aria-hidden="true">…</span> {{/gap}}{{#current}}<strong aria-current="page">{{n}}</strong>{{/current}}{{#other}}<a href="{{url}}">{{n}}</a>{{/other}} {{/standings_pages}}</nav>{{/standings_pager}}
<p><a href="{{standings_csv}}">[[Tabelle als CSV]]</a> · <a href="{{results_csv}}">[[alle Ergebnisse als CSV]]</a> · <a href="{{json_url}}">JSON</a></p>
</section>
{{/has_standings}}
{{#rounds}}
<section class="card round">
<h2>[[Runde {{round}}]]</h2>
{{#round_pager}}<nav class="pager" aria-label="[[Runden]]">{{#round_links}}{{#current}}<strong aria-current="page">[[Runde {{n}}]]</strong>{{/current}}{{#other}}<a href="{{url}}">[[Runde {{n}}]]</a>{{/other}} {{/round_links}}</nav>{{/round_pager}}
{{#table_pager}}<nav class="pager" aria-label="[[Tische der Runde]]">{{#table_pages}}{{#gap}}<span aria-hidden="true">…</span> {{/gap}}{{#current}}<strong aria-current="page">[[Tische {{text}}]]</strong>{{/current}}{{#other}}<a href="{{url}}">[[Tische {{text}}]]</a>{{/other}} {{/table_pages}}</nav>{{/table_pager}}
<ul class="round-tables">
{{#tables}}<li><a href="{{url}}">[[Tisch {{number}}]]</a> <span class="badge{{#done}} done{{/done}}">{{status}}</span>{{#done}} <a href="{{replay_url}}" class="replay">[[nachspielen]]</a>{{/done}}
<ol class="seated">{{#players}}<li{{#me}} class="me"{{/me}}>{{line}}</li>{{/players}}</ol></li>
{{/tables}}
</ul>
{{#byes}}<p>[[Freilos: {{name}} ({{points:x-minus}} Punkte)]]</p>{{/byes}}
</section>
{{/rounds}}
{{#is_registering}}
<section class="card players">
<h2>[[Angemeldet ({{player_count}})]]</h2>
<ul class="plain">
{{#players}}<li{{#me}} class="me"{{/me}}><a href="{{profile_url}}">{{name}}</a>{{#can_remove}} <form method="post" action="{{action_url}}/withdraw" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="name" value="{{name}}"><button type="submit" class="link">[[entfernen]]</button></form>{{/can_remove}}</li>
{{/players}}
</ul>
</section>
{{/is_registering}}
{{>footer}}
