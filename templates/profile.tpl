{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>{{name}}{{#is_me}} <small>[[(du)]]</small>{{/is_me}}</h1>
<section class="card profile">
<p>[[Dabei seit {{member_since}}.]]</p>
<p>[[{{tables_played}} beendete Tische, {{wins}} davon gewonnen (Platz 1 der Endwertung).]]</p>
{{#has_games}}
<h2>[[Tische je Spiel]]</h2>
<ul class="games-played">
{{#games}}<li>{{game_title}}: {{tables}}</li>{{/games}}
</ul>
{{/has_games}}
{{#no_games}}<p>[[Noch kein Tisch zu Ende gespielt.]]</p>{{/no_games}}
</section>
{{#has_ratings}}
<section class="card ratings">
<h2>[[Wertung]]</h2>
<p><small>[[Die Zahl ist vorsichtig geschätzt (μ − 3σ): sie steigt, je sicherer die Wertung ist.]]</small></p>
<ul class="tables">
{{#ratings}}<li><a href="{{board_url}}">{{game_title}}</a>: <strong>{{shown}}</strong> <small>[[(μ {{mu}}, σ {{sigma}}, {{matches_text}})]]</small></li>{{/ratings}}
</ul>
<h3>[[Zuletzt gewertet]]</h3>
<ul class="tables">
{{#rating_history}}<li>{{#has_table}}<a href="{{url}}">{{/has_table}}{{game_title}}{{#has_table}}</a>{{/has_table}} <span class="date">{{date}}</span> [[Platz {{place}} von {{of}}]] → {{shown}}</li>{{/rating_history}}
</ul>
</section>
{{/has_ratings}}
{{#has_results}}
<section class="card results">
<h2>[[Letzte Ergebnisse]]</h2>
<ul class="tables">
{{#results}}<li><a href="{{url}}">[[Tisch {{table_id}} · {{game_title}}]]</a> <a href="{{replay_url}}" class="replay">[[nachspielen]]</a>
<span class="date">{{date}}</span>
<span class="badge{{#won}} turn{{/won}}">[[Platz {{place}} von {{of}}]]</span></li>
{{/results}}
</ul>
</section>
{{/has_results}}
{{>footer}}
