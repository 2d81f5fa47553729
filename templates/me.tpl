{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>Meine Tische</h1>
{{#has_mine}}
<p>{{waiting_count}} von {{mine_count}} Tischen warten auf dich.</p>
<ul class="tables">
{{#mine}}
<li class="{{#my_turn}}attention{{/my_turn}}{{#window}}attention{{/window}}">
<a href="{{url}}">Tisch {{id}} · {{game_title}}</a>
{{#my_turn}}<span class="badge turn">Du bist dran!</span>{{/my_turn}}
{{#window}}<span class="badge window">Fenster offen</span>{{/window}}
{{#has_my_clock}}<span class="clock" title="Zeit auf deiner Uhr"><span aria-hidden="true">◷</span> <span class="sr-only">Deine Uhr:</span> {{my_clock}}</span>{{/has_my_clock}}
{{#is_open}}<span class="badge">wartet ({{seats_taken}}/{{nseats}})</span>{{/is_open}}
{{#is_playing}}<span class="badge">läuft</span>{{/is_playing}}
{{#is_finished}}<span class="badge done">beendet</span>{{/is_finished}}
</li>
{{/mine}}
</ul>
{{/has_mine}}
{{#no_mine}}<p>Du sitzt noch an keinem Tisch. <a href="/">Zur Lobby</a></p>{{/no_mine}}
{{>footer}}
