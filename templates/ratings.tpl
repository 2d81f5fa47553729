{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>[[Wertung: {{game_title}}]]</h1>
<nav class="games-nav" aria-label="[[Spiele]]">{{#games}}{{#current}}<strong aria-current="page">{{title}}</strong>{{/current}}{{#other}}<a href="{{url}}">{{title}}</a>{{/other}} {{/games}}</nav>
<section class="card ratings">
<p><small>[[Gewertet werden beendete Matches unter Menschen, nach ihren Plätzen (OpenSkill, Weng-Lin). Die Zahl ist vorsichtig geschätzt: μ − 3σ. Hier steht, wer mindestens {{rated_min}} gewertete Matches hat.]]</small></p>
{{#has_board}}
<table class="board">
<thead><tr><th scope="col">[[Rang]]</th><th scope="col">[[Name]]</th><th scope="col">[[Wertung]]</th><th scope="col">μ</th><th scope="col">σ</th><th scope="col">[[Matches]]</th></tr></thead>
<tbody>
{{#board}}<tr{{#me}} class="me"{{/me}}><td>{{rank}}</td><td><a href="{{profile_url}}">{{name}}</a></td><td><strong>{{shown}}</strong></td><td>{{mu}}</td><td>{{sigma}}</td><td>{{matches}}</td></tr>
{{/board}}
</tbody>
</table>
{{/has_board}}
{{#no_board}}<p>[[Noch niemand hat hier {{rated_min}} gewertete Matches.]]</p>{{/no_board}}
</section>
{{>footer}}
