{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>[[Meine Tische]]</h1>
{{#has_invites}}
<section class="card invites">
<h2>[[Einladungen]]</h2>
<ul class="tables">
{{#invites}}<li class="attention"><a href="{{url}}">[[Tisch {{id}} · {{game_title}}]]</a> <span class="host">[[<a href="{{from_url}}">{{from}}</a> lädt dich ein]]</span></li>{{/invites}}
</ul>
</section>
{{/has_invites}}
{{#has_mine}}
<p>{{waiting_text}}</p>
<ul class="tables">
{{#mine}}
<li class="{{#attention}}attention{{/attention}}">
<a href="{{url}}">[[Tisch {{id}} · {{game_title}}]]</a>
{{#my_turn}}<span class="badge turn">[[Du bist dran!]]</span>{{/my_turn}}
{{#window}}<span class="badge window">[[Fenster offen]]</span>{{/window}}
{{#can_continue}}<span class="badge window">[[Partie vorbei: weiter?]]</span>{{/can_continue}}
{{#has_my_clock}}<span class="clock" title="[[Zeit auf deiner Uhr]]"><span aria-hidden="true">◷</span> <span class="sr-only">[[Deine Uhr:]]</span> {{my_clock}}</span>{{/has_my_clock}}
{{#is_open}}<span class="badge">[[wartet ({{seats_taken}}/{{nseats}})]]</span>{{/is_open}}
{{#is_playing}}<span class="badge">[[läuft]]</span>{{/is_playing}}
{{#is_finished}}<span class="badge done">[[beendet]]</span>{{/is_finished}}
</li>
{{/mine}}
</ul>
{{/has_mine}}
{{#no_mine}}<p>[[Du sitzt noch an keinem Tisch.]] <a href="/">[[Zur Lobby]]</a></p>{{/no_mine}}
{{#has_tournaments}}
<section class="card my-tournaments">
<h2>[[Meine Turniere]]</h2>
<ul class="tables">
{{#tournaments}}<li><a href="{{url}}">{{name}}</a> · {{game_title}} · {{format}} <span class="badge {{status}}">{{status_text}}</span>{{#started}} [[Runde {{round}} von {{rounds_total}}]]{{/started}}</li>
{{/tournaments}}
</ul>
</section>
{{/has_tournaments}}
{{#feed}}
<section class="feed" id="feed">
<h2>[[Dein Feed]]</h2>
<p>[[Mit dieser Adresse zeigt dir ein Feedreader, wo du dran bist und wie Partien und Matches ausgegangen sind:]]</p>
<p><a href="{{url}}" rel="alternate" type="application/atom+xml"><code>{{url}}</code></a></p>
<p>[[Die Adresse ist geheim: Wer sie kennt, sieht, was in deinem Feed steht. „Neu erzeugen“ macht die alte Adresse ungültig.]]</p>
<form method="post" action="{{renew_url}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit">[[Feed-Adresse neu erzeugen]]</button>
</form>
</section>
{{/feed}}
{{#mail}}
<section class="feed mail" id="mail">
<h2>[[Benachrichtigungen per E-Mail]]</h2>
{{#note}}<p class="note rejected" role="alert">{{text}}</p>{{/note}}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<p><label for="mail-address">[[E-Mail-Adresse]]</label>
<input type="email" id="mail-address" name="address" value="{{address}}" maxlength="254" autocomplete="email"></p>
<fieldset>
<legend>[[Wann?]]</legend>
<label><input type="radio" name="mode" value="none"{{#mode_none}} checked{{/mode_none}}> [[nie]]</label>
<label><input type="radio" name="mode" value="digest"{{#mode_digest}} checked{{/mode_digest}}> [[einmal am Tag eine Zusammenfassung, wenn Tische auf mich warten]]</label>
<label><input type="radio" name="mode" value="turn"{{#mode_turn}} checked{{/mode_turn}}> [[eine Mail, wenn ich an einem Tisch über Tage dran bin]]</label>
</fieldset>
<p>[[Jede Mail hat einen Link, mit dem du sie ohne Anmeldung abbestellst.]]</p>
<button type="submit">[[Speichern]]</button>
</form>
</section>
{{/mail}}
{{>footer}}
