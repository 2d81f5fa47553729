{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>[[Turniere]]</h1>
<section class="card">
{{#has_tournaments}}
<div class="scroll">
<table class="scores tournaments">
<caption class="sr-only">[[Turniere: die kommenden und laufenden zuerst]]</caption>
<thead><tr><th scope="col">[[Turnier]]</th><th scope="col" class="name">[[Spiel]]</th><th scope="col" class="name">[[Format]]</th><th scope="col">[[Start]]</th><th scope="col">[[Spieler]]</th><th scope="col">[[Stand]]</th></tr></thead>
<tbody>
{{#tournaments}}<tr><td><a href="{{url}}">{{name}}</a></td><td class="name">{{game_title}}</td><td class="name">{{format}}</td><td>{{starts}}</td><td>{{player_count}}</td><td><span class="badge {{status}}">{{status_text}}</span>{{#started}} · [[Runde {{round}} von {{rounds_total}}]]{{/started}}</td></tr>
{{/tournaments}}
</tbody>
</table>
</div>
{{/has_tournaments}}
{{#no_tournaments}}<p>[[Noch kein Turnier. Richte das erste aus!]]</p>{{/no_tournaments}}
</section>
<section class="card">
<h2>[[Ein Turnier ausrichten]]</h2>
{{#can_organise}}<p>[[Welches Spiel?]] {{#games}}<a class="button" href="{{new_url}}">{{title}}</a> {{/games}}</p>{{/can_organise}}
{{#login_to_organise}}<p>[[<a href="/login">Anmelden</a>, um ein Turnier auszurichten.]]</p>{{/login_to_organise}}
<p><small>[[Wie Formate, Punkte und Wertungen gerechnet werden, steht in der Anleitung zu den Turnieren.]]</small></p>
</section>
{{>footer}}
