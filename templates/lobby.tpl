{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>[[Lobby]]</h1>
{{#note}}<p class="note rejected" role="alert">{{text}}</p>{{/note}}

{{#logged_in}}
<section class="card">
<h2>[[Meine Tische]]</h2>
{{#has_mine}}
<ul class="tables">
{{#mine}}
<li class="{{#attention}}attention{{/attention}}">
<a href="{{url}}">[[Tisch {{id}} · {{game_title}}]]</a>
{{#my_turn}}<span class="badge turn">[[Du bist dran!]]</span>{{/my_turn}}
{{#window}}<span class="badge window">[[Fenster offen]]</span>{{/window}}
{{#can_continue}}<span class="badge window">[[Partie vorbei: weiter?]]</span>{{/can_continue}}
{{#is_open}}<span class="badge">[[wartet ({{seats_taken}}/{{nseats}})]]</span>{{/is_open}}
{{#is_finished}}<span class="badge done">[[beendet]]</span>{{/is_finished}}
</li>
{{/mine}}
</ul>
{{/has_mine}}
{{#no_mine}}<p>[[Du sitzt noch an keinem Tisch. Eröffne unten einen oder setz dich zu einem offenen.]]</p>{{/no_mine}}
</section>
{{/logged_in}}

<section class="card">
<h2>[[Offene Tische]]</h2>
{{#has_open}}
<ul class="tables">
{{#open_tables}}
<li><a href="{{url}}">[[Tisch {{id}} · {{game_title}}]]</a>
<span class="badge">[[{{seats_taken}}/{{nseats}} Plätze]]</span>
{{#has_host}}<span class="host">[[von <a href="{{host_url}}">{{host}}</a>]]</span>{{/has_host}}
<span class="opts">{{#opts}}<span class="opt">{{label}}: {{text}}</span> {{/opts}}<span class="opt">[[Tempo: {{speed}}]]</span></span></li>
{{/open_tables}}
</ul>
{{/has_open}}
{{#no_open}}<p>[[Gerade wartet kein Tisch auf Mitspieler.]]</p>{{/no_open}}
</section>

<section class="card">
<h2>[[Zuschauen]]</h2>
{{#has_watch}}
<ul class="tables">
{{#watch}}
<li><a href="{{url}}">[[Tisch {{id}} · {{game_title}}]]</a>
<span class="badge">[[Partie {{party_number}} von {{nparties}}]]</span>
<span class="opts"><span class="opt">[[{{nseats}} Plätze]]</span> <span class="opt">[[Tempo: {{speed}}]]</span></span>
<span class="players">{{#players}}{{name}}{{#more}}, {{/more}}{{/players}}</span></li>
{{/watch}}
</ul>
{{/has_watch}}
{{#no_watch}}<p>[[Gerade läuft an keinem Tisch eine Partie.]]</p>{{/no_watch}}
</section>

<section class="card">
<h2>[[Die Spiele]]</h2>
<div class="games">
{{#games}}
<article class="game">
<h3>{{title}}</h3>
<p class="tagline">{{tagline}}</p>
<p>[[{{min_players}}–{{max_players}} Personen]] · <a href="{{ratings_url}}">[[Wertung]]</a></p>
{{#login_to_create}}<p>[[<a href="/login">Anmelden</a>, um einen Tisch zu eröffnen.]]</p>{{/login_to_create}}
{{#can_create}}
<form method="post" action="/tables" class="stack">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="game" value="{{slug}}">
<label>[[Plätze]]
<select name="seats">{{#seat_choices}}<option value="{{n}}"{{#selected}} selected{{/selected}}>{{n}}</option>{{/seat_choices}}</select>
</label>
<details class="table-options">
<summary>[[Optionen und Tempo]]</summary>
<div class="stack">
{{>table_fields}}
<label>[[Zuschauer an diesem Tisch]] <select name="spectators"><option value="1" selected>[[erlaubt]]</option><option value="0">[[nicht erlaubt: nur wer mitspielt, sieht die laufende Partie]]</option></select></label>
</div>
</details>
<button type="submit" class="primary">[[Tisch eröffnen]]</button>
</form>
{{/can_create}}
</article>
{{/games}}
{{#coming}}
<article class="game coming">
<h3>{{title}} <span class="badge">[[bald]]</span></h3>
<p class="tagline">{{tagline}}</p>
<p>[[{{min_players}}–{{max_players}} Personen]]</p>
</article>
{{/coming}}
</div>
</section>
{{>footer}}
