{{%AUTOESCAPE context="HTML"}}
<div class="dna">{{! The board as drawn from every entry of DNA's view (its JSON twin), before the page's tree had values of its own: test_dna compares game-dna.tpl from the page's tree with it. }}
<svg class="dna-defs" aria-hidden="true" focusable="false" width="0" height="0">
<defs>
<pattern id="dna-stripe-rot" width="3" height="14" patternUnits="userSpaceOnUse"><rect width="1.3" height="14" class="dna-ink-rot"/></pattern>
<pattern id="dna-stripe-gruen" width="3" height="14" patternUnits="userSpaceOnUse"><rect width="1.3" height="14" class="dna-ink-gruen"/></pattern>
<pattern id="dna-stripe-lila" width="3" height="14" patternUnits="userSpaceOnUse"><rect width="1.3" height="14" class="dna-ink-lila"/></pattern>
<symbol id="dna-raute" viewBox="0 0 30 14"><path d="M2 7 15 1.2 28 7 15 12.8Z"/></symbol>
<symbol id="dna-welle" viewBox="0 0 30 14"><path d="M2.5 10.5C2 5 6 1.5 10.5 3.5s6.5 3 10 .5 7.5-1.5 7 3.5-4.5 7-9 5-6.5-3-10-.5-6.5.5-6-1.5Z"/></symbol>
<symbol id="dna-oval" viewBox="0 0 30 14"><rect x="2" y="1.5" width="26" height="11" rx="5.5"/></symbol>
</defs>
</svg>

<p class="dna-headline">{{headline}}</p>
{{#discarding}}<p class="dna-note" role="status">[[Das Deck ist leer und kein Strang hat mehr als zwei Karten: jeder wirft eine Handkarte verdeckt ab.]]</p>{{/discarding}}
{{#picking}}<p class="dna-note" role="status">[[Das Deck ist leer und mehrere Stränge sind gleich lang die längsten: wer das Deck hat, wählt, welcher ins Deck gemischt und aus zwei Deckkarten neu gelegt wird; bis zur Frist ohne Wahl der mit der kleinsten Nummer.]]</p>{{/picking}}
{{#race}}<p class="dna-note" role="status">[[Eröffnungsrennen: wer zuerst mit den beiden Karten eines Strangs und einer Handkarte ein Set bildet, legt es als ersten Zug.]]</p>{{/race}}
{{#refilling}}<p class="dna-note" role="status">[[Wer Stränge verbunden oder ein Set gespielt hat, legt eine beliebige Handkarte an die aufgedeckte Karte]]{{#has_refill}} — [[du an Strang {{refill_strand}}]]{{/has_refill}}.</p>{{/refilling}}

<div class="dna-table">
{{#strands}}<figure class="dna-strand">
<figcaption>{{#single}}[[Strang {{number}} · 1 Karte]] · [[wartet auf eine zweite Karte]]{{/single}}{{#many_cards}}[[Strang {{number}} · {{cards_count}} Karten]]{{/many_cards}}{{#has_marks}} · [[gleiche Buchstaben: verbunden]]{{/has_marks}}{{#has_last}} <span class="last-mark">{{last_text}}</span>{{/has_last}}</figcaption>
<svg class="dna-chain" viewBox="-2 -2 {{w}} {{h}}" width="{{pw}}" height="{{ph}}" role="img" aria-label="[[Strang {{number}}]]">
{{#links}}<line x1="{{x1}}" y1="{{y1}}" x2="{{x2}}" y2="{{y2}}" class="dna-link"/>{{/links}}
{{#cards}}<g transform="translate({{x}} {{y}})" class="dna-placed{{#is_end}} dna-end{{/is_end}}{{#last}} last{{/last}}">
<title>{{label}}{{#is_end}} — [[Ende e{{end_id}}]]{{/is_end}}{{#joins}} — [[Verbindung {{mark}}]]{{/joins}}{{#last}} — {{last_text}}{{/last}}</title>
<rect width="40" height="70" rx="5" class="dna-face"/>
{{#sym}}<use href="#dna-{{shape}}" x="5" y="{{sy}}" width="30" height="14" class="dna-sym dna-c-{{colour}} dna-f-{{fill}}"/>{{/sym}}
<text x="20" y="66" class="dna-cword">{{colour_word}}</text>
{{#joins}}<g class="dna-join"><circle cx="40" cy="{{my}}" r="6.5"/><text x="40" y="{{my}}" dy="3">{{mark}}</text></g>{{/joins}}
{{#is_end}}<rect x="4" y="71" width="32" height="10" rx="5" class="dna-tag"/><text x="20" y="79.2" class="dna-tag-text">e{{end_id}}</text>{{/is_end}}
</g>{{/cards}}
</svg>
</figure>{{/strands}}
<p class="dna-deck">[[Deck: {{deck_count}} Karten · bei {{holder_seat_name}}]]</p>
</div>

{{#has_hand}}<section class="dna-mine">
<h3>[[Deine Hand]]</h3>
{{#has_choice}}<p class="dna-choice">[[Deine Wahl (verdeckt): {{my_choice}}]]</p>{{/has_choice}}
{{#may_change}}<p class="dna-hint">[[Bis alle gewählt haben, darfst du deine Wahl noch ändern: wähle einfach neu.]]</p>{{/may_change}}
<ul class="dna-hand">
{{#hand}}<li class="dna-slot">
{{#has_moves}}<details class="dna-pick"><summary>{{/has_moves}}
<svg class="dna-card" viewBox="0 0 40 60" role="img" aria-label="{{label}}"><title>{{label}}</title>
<rect x="0.5" y="0.5" width="39" height="59" rx="5" class="dna-face"/>
{{#sym}}<use href="#dna-{{shape}}" x="5" y="{{sy}}" width="30" height="14" class="dna-sym dna-c-{{colour}} dna-f-{{fill}}"/>{{/sym}}
</svg>
<span class="dna-name">{{label}}{{#several}} <span class="dna-copies">×{{copies}}</span>{{/several}}</span>
{{#has_moves}}<span class="dna-count">[[{{move_count}} Züge ▾]]</span></summary>
<div class="dna-opts">{{#moves}}{{>move_form}}{{/moves}}</div>
</details>{{/has_moves}}
</li>{{/hand}}
</ul>
<div class="dna-actions">
{{#plain}}{{#moves}}{{>move_form}}{{/moves}}{{/plain}}
</div>
</section>{{/has_hand}}

<section class="dna-players">
<h3>[[Mitspieler]]</h3>
<ul class="dna-seats">
{{#seats}}<li class="dna-seat{{#me}} dna-me{{/me}}{{#waiting}} dna-waiting{{/waiting}}">
<span class="dna-who">{{seat_name}}{{#me}} [[(du)]]{{/me}}{{#holder}} <span class="dna-badge">[[Deck]]</span>{{/holder}}</span>
<span class="dna-counts">[[Handkarten: {{hand_count}}]]</span>
{{#chosen}}<span class="dna-badge dna-done">[[hat gewählt]]</span>{{/chosen}}
{{#waiting}}<span class="dna-badge dna-now">[[ist dran]]</span>{{/waiting}}
{{#has_place}}<span class="dna-badge dna-place">[[Platz {{place}}]]</span>{{/has_place}}
</li>{{/seats}}
</ul>
</section>

{{#over}}<section class="dna-final">
<h3>[[Ergebnis]]</h3>
<ul class="dna-places">{{#places}}<li>[[Platz {{place}}: {{seat_name}} — {{cards}} Handkarten]]</li>{{/places}}</ul>
</section>{{/over}}

<section class="dna-log">
<h3>[[Zuletzt]]</h3>
<ol>{{#log}}<li>{{text}}</li>{{/log}}</ol>
</section>

<details class="dna-rules">
<summary>[[Kurzregeln]]</summary>
<ul>
<li>[[Jede Karte hat Anzahl, Farbe, Füllung und Form. Drei Karten sind ein <strong>Set</strong>, wenn jede Eigenschaft bei allen gleich oder bei allen verschieden ist; bei mehreren Decks sind drei gleiche Karten ein Set.]]</li>
<li>[[Ein <strong>Ende</strong> (e1, e2, …) ist das letzte Kartenpaar eines Strangs. Eine Karte <strong>passt</strong>, wenn sie sich von der Karte, die mit dem Paar ein Set bilden würde, in genau einer Eigenschaft unterscheidet.]]</li>
<li>[[Jeden Zug wählen alle verdeckt: eine Karte an ein oder mehrere Enden anlegen (höchstens 4), ein Set an ein Ende legen, oder eine Karte ziehen. Dann wird im Uhrzeigersinn ab dem Deck aufgedeckt; es gelten die Enden vom Zugbeginn.]]</li>
<li>[[Nie an beide Enden eines Zwei-Karten-Strangs. Mehrere Karten an einem Ende verzweigen es; eine Karte an mehreren Enden verbindet sie.]]</li>
<li>[[Passt eine aufgedeckte Karte nirgends mehr (ihr Strang wurde weggeräumt): zurück auf die Hand und 2 Strafkarten; bei einem Set 3.]]</li>
<li>[[Stränge mit Set und Stränge ohne Enden werden weggeräumt; neue Stränge beginnen mit einer aufgedeckten Karte, an die die Verbinder und Set-Spieler eine Handkarte legen; sonst kommt eine Deckkarte dazu.]]</li>
<li>[[Leeres Deck: der längste Strang (bei Gleichstand der mit der kleinsten Nummer) wird ins Deck gemischt und neu ausgelegt; sind alle Stränge kurz, wirft jeder eine Karte ab.]]</li>
<li>[[Wer keine Handkarten mehr hat, gewinnt]]{{#play_on}}; [[die anderen spielen um die weiteren Plätze]]{{/play_on}}.</li>
</ul>
</details>
</div>
