{{%AUTOESCAPE context="HTML"}}
<div class="ww">
<p class="ww-headline">{{headline}}</p>

{{#over}}<p class="ww-note" role="status">[[Alle {{rounds_total}} Karten sind gespielt: die meisten Punkte gewinnen.]]</p>{{/over}}

{{#has_card}}<section class="ww-card" aria-label="[[Karte und Würfel]]">
<p class="ww-round">[[Karte {{round_number}} von {{rounds_total}}]]</p>
<h3 class="ww-category"><span lang="de">{{category}}</span> <span class="ww-mult">× {{multiplier}}</span></h3>
<ul class="ww-dice">
{{#uses_g1}}<li class="ww-die ww-must" title="[[muss vorkommen]]">{{g1_letter}}<sub>{{g1_points}}</sub><span class="ww-vh"> [[muss vorkommen, zählt {{g1_points}}]]</span></li>{{/uses_g1}}
{{#uses_g2}}<li class="ww-die ww-must" title="[[muss vorkommen]]">{{g2_letter}}<sub>{{g2_points}}</sub><span class="ww-vh"> [[muss vorkommen, zählt {{g2_points}}]]</span></li>{{/uses_g2}}
{{#uses_forbidden}}<li class="ww-die ww-not" title="[[darf nicht vorkommen]]">{{forbidden}}<span class="ww-vh"> [[darf nicht vorkommen]]</span></li>{{/uses_forbidden}}
{{#uses_syllables}}<li class="ww-die ww-syl" title="[[Silben]]">{{syllables}}<span class="ww-vh"> [[Silben]]</span></li>{{/uses_syllables}}
</ul>
<p class="ww-meaning">{{#uses_g1}}[[muss ein {{g1_letter}} enthalten]]{{/uses_g1}}{{#uses_g2}} · [[muss ein {{g2_letter}} enthalten]]{{/uses_g2}}{{#uses_forbidden}} · [[kein {{forbidden}}]]{{/uses_forbidden}}{{#uses_syllables}} · [[{{syllables}} Silben]]{{/uses_syllables}}</p>
{{#word_form}}<form method="post" action="{{move_url}}" class="ww-answer">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="v" value="{{v}}">
<input type="hidden" name="move" value="answer">
<label for="ww-word">[[Dein Wort]]</label>
<input id="ww-word" name="arg0" maxlength="64" autocomplete="off" autocapitalize="off" spellcheck="false" lang="de" required autofocus>
<button type="submit" class="primary">[[Wort nennen]]</button>
</form>{{/word_form}}
<p class="ww-hint">[[Das Wort muss typisch für die Kategorie sein und darf sie (oder Teile davon) nicht enthalten. Ä ist nicht A.]]</p>
</section>{{/has_card}}

{{#answering}}<p class="ww-note" role="status">{{#has_claimer}}[[{{claimer_seat_name}} hat „Stopp“ gerufen.]]{{/has_claimer}} [[„Zurücknehmen“ kostet 10 Punkte.]]</p>{{/answering}}

{{#has_word}}<section class="ww-word" aria-label="[[Das genannte Wort]]">
<p class="ww-the-word">{{claimer_seat_name}}: <strong lang="de">{{word}}</strong></p>
<p class="ww-facts">{{#has_suggestion}}{{#syllables_confirmed}}[[Silben laut Trennprogramm: {{suggested_syllables}} — passt zum Würfel.]]{{/syllables_confirmed}}{{#syllables_in_doubt}}[[Silben laut Trennprogramm: {{suggested_syllables}} — passt nicht zum Würfel: das Wort zählt nur, wenn die Mehrheit zustimmt.]]{{/syllables_in_doubt}}{{/has_suggestion}}
{{#in_word_list}} · [[steht im deutschen Wörterverzeichnis.]]{{/in_word_list}}{{#not_in_word_list}} · [[steht nicht im deutschen Wörterverzeichnis.]]{{/not_in_word_list}}</p>
{{#voting}}<p class="ww-hint">[[Daumen runter, wenn das Wort unpassend ist: keine Mehrzahl bei Gebotswürfeln, Abkürzungen und Anglizismen nur, wenn sie im Deutschen üblich sind. Eine Mehrheit dagegen gibt −3.]]</p>{{/voting}}
</section>{{/has_word}}

<div class="ww-actions">
{{#actions}}{{>move_form}}{{/actions}}
</div>

<section class="ww-players">
<h3>[[Mitspieler]]</h3>
<ul class="ww-seats">
{{#seats}}<li class="ww-seat{{#is_me}} ww-me{{/is_me}}">
<span class="ww-who">{{seat_name}}{{#is_me}} [[(du)]]{{/is_me}}</span>
<span class="ww-score">{{score:x-points}}</span>
{{#passed}}<span class="ww-badge">[[passt]]</span>{{/passed}}
{{#voted_up}}<span class="ww-badge ww-up">[[dafür]]</span>{{/voted_up}}
{{#voted_down}}<span class="ww-badge ww-down">[[dagegen]]</span>{{/voted_down}}
{{#to_vote}}<span class="ww-badge">[[stimmt noch ab]]</span>{{/to_vote}}
</li>{{/seats}}
</ul>
</section>

{{#has_rounds}}<section class="ww-rounds">
<h3>[[Runden]]</h3>
<table>
<thead><tr><th scope="col">[[Karte]]</th><th scope="col">[[Kategorie und Wort]]</th><th scope="col">[[Punkte]]</th></tr></thead>
<tbody>
{{#rounds}}<tr><td>{{number}}</td><td><span class="ww-cat" lang="de">{{category}}</span> <span class="ww-said">{{said}}<span lang="de">{{word}}</span></span> <span class="ww-result">{{result}}{{#why}}<span class="ww-why"> · {{text}}</span>{{/why}}</span></td><td><ul class="ww-pts-list">{{#points}}<li><span class="ww-pts-name">{{seat_name}}</span> <span class="ww-pts">{{value:x-minus}}</span></li>{{/points}}{{#no_points}}<li>[[keine]]</li>{{/no_points}}</ul></td></tr>{{/rounds}}{{! last_round: the round just decided, the same row with its mark
}}{{#last_round}}<tr class="last"><td>{{number}}</td><td><span class="last-mark">[[zuletzt]]</span> <span class="ww-cat" lang="de">{{category}}</span> <span class="ww-said">{{said}}<span lang="de">{{word}}</span></span> <span class="ww-result">{{result}}{{#why}}<span class="ww-why"> · {{text}}</span>{{/why}}</span></td><td><ul class="ww-pts-list">{{#points}}<li><span class="ww-pts-name">{{seat_name}}</span> <span class="ww-pts">{{value:x-minus}}</span></li>{{/points}}{{#no_points}}<li>[[keine]]</li>{{/no_points}}</ul></td></tr>{{/last_round}}
</tbody>
</table>
</section>{{/has_rounds}}

<section class="ww-log">
<h3>[[Zuletzt]]</h3>
<ol>{{#log}}<li>{{text}}</li>{{/log}}</ol>
</section>
</div>
