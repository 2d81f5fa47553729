{{%AUTOESCAPE context="HTML"}}
<section class="card party-end" id="party-end" aria-labelledby="party-end-title">
{{#match_over}}
<h2 id="party-end-title">[[Ergebnis des Matches]]</h2>
<p class="result-lead"><strong>{{winners}}</strong> {{#shared_win}}[[gewinnen das Match gemeinsam.]]{{/shared_win}}{{#sole_win}}[[gewinnt das Match.]]{{/sole_win}}</p>
<h3>[[Endstand nach {{nparties}} Partien]]</h3>
<ol class="standings">
{{#standings}}<li{{#winner}} class="winner"{{/winner}}><span class="place">{{place}}.</span> {{name}}{{#me}} [[(du)]]{{/me}} – [[{{total_text}} Punkte]]{{#winner}} <span class="badge win">[[Sieg]]</span>{{/winner}}</li>{{/standings}}
</ol>
<h3>[[Die letzte Partie]]</h3>
{{/match_over}}
{{#single}}<h2 id="party-end-title">[[Die Partie ist beendet]]</h2>{{/single}}
{{#pausing}}<h2 id="party-end-title">[[Partie {{number}} von {{nparties}} ist beendet]]</h2>{{/pausing}}
<p class="party-headline">{{headline}}</p>
<div class="scroll">
<table class="scores party-result">
<thead><tr><th>[[Platz]]</th><th>[[Punkte]]</th>{{#several}}<th>[[Summe]]</th>{{/several}}{{#pausing}}<th>[[Bereit]]</th>{{/pausing}}</tr></thead>
<tbody>
{{#results}}<tr{{#me}} class="me"{{/me}}><td>{{place}}. {{name}}{{#me}} [[(du)]]{{/me}}</td><td>{{score_text}}</td>{{#several}}<td>{{total_text}}</td>{{/several}}{{#pausing}}<td>{{#ready}}[[ja]]{{/ready}}{{#waiting}}–{{/waiting}}</td>{{/pausing}}</tr>{{/results}}
</tbody>
</table>
</div>
<p class="why">[[Wie die Punkte zustande kommen, zeigt das Spielbrett unten.]]</p>
{{#pausing}}
<p class="next" role="status">[[Partie {{next_number}} beginnt, sobald alle „Weiter“ gewählt haben ({{ready_count}} von {{nseats}}), spätestens in <span data-countdown="{{seconds}}">{{seconds}}</span> s.]]</p>
{{#continue_button}}{{>move_form}}{{/continue_button}}
{{#continued}}<p class="waiting">[[Du bist bereit; es geht weiter, sobald alle so weit sind.]]</p>{{/continued}}
{{/pausing}}
</section>
