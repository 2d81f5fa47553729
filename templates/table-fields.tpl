{{%AUTOESCAPE context="HTML"}}
{{#options}}
{{#is_int}}<label>{{label}} <input type="number" name="{{key}}" value="{{def}}" min="{{min}}" max="{{max}}" required> {{unit}}</label>{{/is_int}}
{{#is_bool}}<label class="check"><input type="checkbox" name="{{key}}" value="1"{{#checked}} checked{{/checked}}> {{label}}</label>{{/is_bool}}
{{/options}}
<fieldset class="speed">
<legend>[[Tempo]]</legend>
<label class="check"><input type="radio" name="speed" value="live" checked> [[Live, an einem Abend]]</label>
<label>[[Sekunden pro Zug (0: ohne Limit)]] <input type="number" name="move_seconds" value="0" min="0" max="3600" required></label>
<label class="check"><input type="radio" name="speed" value="days"> [[Über Tage: eine Uhr pro Platz]]</label>
<label>[[Tage für den ersten Zug (und höchstens)]] <select name="clock_days"><option>1</option><option>2</option><option selected>3</option><option>5</option><option>7</option><option>10</option><option>14</option></select></label>
<label>[[Stunden dazu nach jedem Zug]] <input type="number" name="move_hours" value="24" min="1" max="72" required></label>
<label class="check"><input type="checkbox" name="weekend" value="1"> [[Wochenenden zählen nicht]]</label>
<label>[[Ein Bot übernimmt nach]] <input type="number" name="timeouts" value="3" min="1" max="9" required> [[Zeitüberschreitungen]]</label>
</fieldset>
