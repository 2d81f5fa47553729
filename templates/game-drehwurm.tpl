{{%AUTOESCAPE context="HTML"}}
<div class="dw">

{{#window}}<p class="dw-window" role="status">[[<strong>Zwischenwurf</strong> auf Stapel {{stack}}, gedreht von {{opener_seat_name}}.]]
{{#may_snap}}[[Du darfst eine passende Karte dazwischenwerfen.]]{{/may_snap}}</p>{{/window}}

<div class="dw-middle">
{{#stacks}}<div class="dw-stack{{#is_snap}} dw-snap{{/is_snap}}{{#last}} last{{/last}}">
<span class="dw-label">[[Stapel {{stack}}]]{{#last}} <span class="last-mark">{{last_text}}</span>{{/last}}</span>
{{#has_top}}<span class="dw-pile" title="[[{{size}} Karten]]">
<span class="dw-card dw-{{colour_class}}" title="{{name}}"><span class="dw-sym" aria-hidden="true"></span><span class="dw-rank{{#wide_rank}} dw-wide{{/wide_rank}}" aria-hidden="true">{{rank}}</span><span class="dw-corner">{{name}}</span></span>
</span>{{/has_top}}
{{#empty}}<span class="dw-card dw-gone">[[leer]]</span>{{/empty}}
<span class="dw-size">[[{{size}} Karten]]</span>
{{#next}}<span class="dw-next" title="[[kommt beim nächsten Drehen nach oben]]">[[unten:]] <span class="dw-nw"><span class="dw-mini dw-{{colour_class}}" aria-hidden="true"><span class="dw-sym"></span>{{rank}}</span> {{name}}</span></span>{{/next}}
{{#next_hidden}}<span class="dw-next" title="[[die unterste Karte wurde verdeckt ausgelegt]]">[[unten: verdeckt]]</span>{{/next_hidden}}
</div>{{/stacks}}
<div class="dw-stack dw-drawpile">
<span class="dw-label">[[Nachziehen]]</span>
<span class="dw-card dw-back"><span class="dw-rank">{{draw_count}}</span></span>
<span class="dw-size">[[{{draw_count}} Karten]]</span>
</div>
</div>

{{#has_hand}}<section class="dw-mine">
<h3>[[Deine Hand]]</h3>
<ul class="dw-hand">
{{#hand}}<li class="dw-slot">
{{#is_chicken}}<span class="dw-card dw-chicken dw-{{colour_class}}" title="{{name}}"><span class="dw-sym" aria-hidden="true"></span><svg class="dw-hen" viewBox="0 0 32 32" aria-hidden="true"><path d="M9 7c1-3 4-3 5-1 1-2 4-2 4 1" class="dw-comb"/><circle cx="13" cy="12" r="5"/><path d="M8 12l-4 2 4 1z" class="dw-beak"/><path d="M9 17c0 6 4 10 10 10s9-5 9-10c-3 2-7 2-10 0-3-2-6-2-9 0z"/></svg><span class="dw-corner">{{name}}</span></span>{{/is_chicken}}
{{#is_worm}}<span class="dw-card dw-{{colour_class}}" title="{{name}}"><span class="dw-sym" aria-hidden="true"></span><span class="dw-rank{{#wide_rank}} dw-wide{{/wide_rank}}" aria-hidden="true">{{rank}}</span><span class="dw-corner">{{name}}</span></span>{{/is_worm}}
{{#is_joker}}<span class="dw-card dw-joker" title="{{name}}"><span class="dw-rank" aria-hidden="true">J</span><span class="dw-corner">[[Joker]]</span></span>{{/is_joker}}
{{#moves}}{{>move_form}}{{/moves}}
</li>{{/hand}}
</ul>
<div class="dw-actions">
{{#draw_moves}}{{>move_form}}{{/draw_moves}}
{{#pass_move}}{{>move_form}}{{/pass_move}}
</div>
</section>{{/has_hand}}

<section class="dw-players">
<h3>[[Mitspieler]]</h3>
<ul class="dw-seats">
{{#seats}}<li class="dw-seat{{#is_me}} dw-me{{/is_me}}{{#is_turn}} dw-turn{{/is_turn}}">
<span class="dw-who">{{seat_name}}{{#is_me}} [[(du)]]{{/is_me}}{{#is_dealer}} <span class="dw-badge">[[gibt]]</span>{{/is_dealer}}{{#is_turn}} <span class="dw-badge dw-now">[[am Zug]]</span>{{/is_turn}}</span>
<span class="dw-counts">[[Handkarten: {{hand_count}} · Hühner: {{chickens_left}} · gefressen: {{eaten_count}}]]</span>
{{#eaten}}<span class="dw-eaten dw-{{colour_class}}"><span class="dw-sym" aria-hidden="true"></span> [[{{chicken_name}}: {{size}} Karten]]{{#open}}, [[{{points:x-minus}} Punkte]]{{/open}}
{{#open}}<span class="dw-eaten-cards">{{#cards}}<span class="dw-mini dw-{{colour_class}}" title="{{name}}"><span class="dw-sym" aria-hidden="true"></span><span aria-hidden="true">{{rank}}</span><span class="dw-vh">{{name}}</span></span>{{/cards}}</span>{{/open}}</span>{{/eaten}}
{{#running}}<span class="dw-running" title="[[Jede Karte in einem gefressenen Stapel zählt mindestens 1 Punkt, jede Handkarte −1; wie viel genau, zeigt das Ende.]]">{{#at_least}}[[Punkte jetzt: mindestens {{running_score:x-minus}}]]{{/at_least}}{{#exact}}[[Punkte jetzt: {{running_score:x-minus}}]]{{/exact}}</span>{{/running}}
{{#final}}<span class="dw-final">[[Gefressen {{eaten_points:x-minus}} · Hand {{hand_minus:x-minus}} · <strong>{{score:x-minus}} Punkte</strong>]]</span>{{/final}}
</li>{{/seats}}
</ul>
</section>

<section class="dw-log">
<h3>[[Zuletzt]]</h3>
<ol>{{#log}}<li>{{text}}</li>{{/log}}</ol>
</section>

<details class="dw-rules">
<summary>[[Kurzregeln und Regelentscheidungen]]</summary>
<ul>
<li>[[Karten: fünf Farben mit Zeichen — rot ●, gelb ▲, grün ■, blau ◆, lila ★ —, je eine 1/10 und zweimal 2 bis 9; dazu 5 Joker. Jede Person bekommt 10 Wurmkarten und 2 Hühner; die übrigen Hühner bleiben verdeckt aus dem Spiel.]]</li>
<li>[[Eine Wurmkarte muss eine <strong>andere Farbe</strong> als die oberste Karte des Stapels haben und eine <strong>Nachbarzahl</strong> (1/10 liegt neben 2 und 9). Der Joker passt immer, und auf ihn passt alles.]]</li>
<li>[[Nach dem Legen wird der Stapel gedreht: die unterste Karte liegt nun oben. Ist die unterste Karte bekannt (sie wurde offen gelegt oder lag vor dem Drehen oben), steht sie unter dem Stapel („unten:“); die verdeckt ausgelegte Karte eines neuen Stapels bleibt verdeckt.]]</li>
<li>[[Ein Huhn frisst einen Stapel, dessen oberste Karte seine Farbe hat oder ein Joker ist; dann kommt ein neuer Stapel vom Nachziehstapel (eine Karte verdeckt, eine offen, ohne Zwischenwurf).]]</li>
<li>[[Ziehen und einen beliebigen Stapel drehen darf man immer, auch wenn eine Karte passen würde.]]</li>
<li>[[Zwischenwurf: Nach jedem Drehen dürfen alle außer der Person, die gedreht hat, eine Wurmkarte auf diesen Stapel werfen ({{snap_seconds}} s Frist), nach den normalen Regeln (andere Farbe, Nachbarzahl)]]{{#snap_colour}} — [[<strong>Variante an diesem Tisch:</strong> statt einer anderen Farbe muss die Karte <strong>dieselbe Farbe</strong> wie die oberste Karte haben (Joker passen immer)]]{{/snap_colour}}. [[Kein Huhn. Die erste passende Karte gewinnt, der Stapel wird danach nicht noch einmal gedreht, und die Reihenfolge bleibt. Hat niemand eine passende Karte, entfällt der Zwischenwurf; sonst werfen oder passen alle anderen, bis die Frist abläuft.]]</li>
<li>[[Ende: sofort, wenn eine Hand leer ist, alle Hühner gespielt sind, der Nachziehstapel aufgebraucht ist oder nicht mehr für einen neuen Stapel reicht.]]</li>
<li>[[Wertung: jeder gefressene Stapel für sich — Karten in der Farbe des Huhns 3, Joker 2, andere 1 Punkt; jede Handkarte −1. Was in gefressenen Stapeln liegt, zeigt die Seite erst am Ende; bis dahin zählt nur −1 je Handkarte.]]</li>
<li>[[Eine Runde hat so viele Partien wie Mitspieler; der Geber wechselt im Uhrzeigersinn, die Person links vom Geber beginnt. Bei Gleichstand gewinnen mehrere.]]</li>
</ul>
</details>
</div>
