{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>[[Turnier ausrichten: {{game_title}}]]</h1>
{{#note}}<p class="note rejected" role="alert">{{text}}</p>{{/note}}
<section class="card">
<form method="post" action="/tournaments" class="stack">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="game" value="{{game}}">
<label>[[Name des Turniers]] <input type="text" name="name" required minlength="3" maxlength="120"></label>
<fieldset>
<legend>[[Format]]</legend>
<label class="check"><input type="radio" name="format" value="swiss" checked> [[Schweizer System: ähnlich viele Punkte an einem Tisch, möglichst niemand zweimal zusammen]]</label>
<label class="check"><input type="radio" name="format" value="elimination"> [[K.-o.-System: die Besten jedes Tisches kommen weiter]]</label>
<label class="check"><input type="radio" name="format" value="groups"> [[Jeder gegen jeden in Gruppen: jede Gruppe ein Tisch, die Sitzordnung wandert jede Runde]]</label>
<label>[[Im K.-o.-System kommen weiter: die besten]] <input type="number" name="advance" value="2" min="1" max="7"> [[jedes Tisches]]</label>
</fieldset>
<label>[[Plätze pro Tisch]] <select name="seats">{{#seat_choices}}<option value="{{n}}"{{#selected}} selected{{/selected}}>{{n}}</option>{{/seat_choices}}</select></label>
<label>[[Kleinste Tische, wenn es nicht aufgeht]] <select name="min_seats">{{#min_choices}}<option value="{{n}}"{{#selected}} selected{{/selected}}>{{n}}</option>{{/min_choices}}</select></label>
<label>[[Runden]] <input type="number" name="rounds" value="3" min="1" max="20" required></label>
<label>[[Punkte nach Platz (leer: 2 je Platz, z. B. 6,4,2,0)]] <input type="text" name="points" maxlength="40" inputmode="numeric" pattern="[0-9 ,]*"></label>
<label>[[Bei Punktgleichheit zählen]] <select name="tiebreaks">
<option value="party,sb" selected>[[erst die Partiepunkte, dann die Gegnerwertung]]</option>
<option value="sb,party">[[erst die Gegnerwertung, dann die Partiepunkte]]</option>
<option value="party">[[nur die Partiepunkte]]</option>
<option value="sb">[[nur die Gegnerwertung]]</option>
<option value="">[[nichts: geteilte Plätze]]</option>
</select></label>
<label>[[Start in]] <input type="number" name="start_minutes" value="60" min="0" max="86400" required> [[Minuten]]</label>
<label>[[Anmeldeschluss]] <input type="number" name="close_minutes" value="0" min="0" max="86400"> [[Minuten vor dem Start]]</label>
{{>table_fields}}
<button type="submit" class="primary">[[Turnier ausrichten]]</button>
</form>
</section>
{{>footer}}
