{{%AUTOESCAPE context="HTML"}}
<div class="dr">
<p class="dr-headline">{{headline}}</p>
{{#last_round}}<p class="dr-note" role="status">[[Alle Karten sind vergeben: der Reihe nach darf jede Person noch einmal Sets ablegen und an eigene Sets anlegen; dann wird gezählt.]]</p>{{/last_round}}

<section class="dr-middle" aria-label="[[Auslage in der Mitte]]">
<h3>[[Mitte]] <span class="dr-pile">[[Nachziehstapel: {{draw_count}} Karten]]</span></h3>
<ul class="dr-cards">
{{#middle}}<li class="dr-slot{{#last}} last{{/last}}">
{{#empty}}<span class="dr-card dr-gone" aria-label="[[leerer Platz]]">[[leer]]</span>{{/empty}}
{{#has_card}}<span class="dr-card{{#red}} dr-red{{/red}}" title="{{name}}"><span class="dr-rank" aria-hidden="true">{{rank}}</span><span class="dr-suit" aria-hidden="true">{{suit}}</span><span class="dr-vh">{{name}}</span></span>
{{#last}}<span class="last-mark">{{last_text}}</span>{{/last}}
{{#moves}}{{>move_form}}{{/moves}}{{/has_card}}
</li>{{/middle}}
</ul>
</section>

{{#has_hand}}<section class="dr-mine">
{{#my_turn}}<h3>[[Dein Zug]]</h3>{{/my_turn}}
<div class="dr-actions">
{{#roll_move}}{{>move_form}}{{/roll_move}}
{{#keep_form}}<form method="post" action="{{move_url}}" class="dr-keep">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="v" value="{{v}}">
<input type="hidden" name="move" value="keep">
<fieldset><legend>[[Tippe die Würfel an, die du zur Seite legst; die übrigen werden neu gewürfelt.]]</legend>
<p class="dr-dice dr-pickdice">{{#my_dice}}{{#pick}}<label class="dr-pick"><input type="checkbox" name="arg{{index}}" value="{{face}}"><span class="dr-die">{{face}}</span></label>{{/pick}}{{#kept}}<span class="dr-die dr-kept">{{face}}<span class="dr-vh"> [[(zur Seite gelegt)]]</span></span>{{/kept}}{{#out}}<span class="dr-die dr-out">{{face}}<span class="dr-vh"> [[(auf einer Karte)]]</span></span>{{/out}}{{/my_dice}}</p>
</fieldset>
<button type="submit" class="primary">[[Angetippte Würfel zur Seite legen]]</button>
</form>{{/keep_form}}
{{#show_my_dice}}<p class="dr-dice" aria-label="[[Deine Würfel]]">{{#my_dice}}{{#kept}}<span class="dr-die dr-kept">{{face}}<span class="dr-vh"> [[(zur Seite gelegt)]]</span></span>{{/kept}}{{#out}}<span class="dr-die dr-out">{{face}}<span class="dr-vh"> [[(auf einer Karte)]]</span></span>{{/out}}{{/my_dice}}</p>{{/show_my_dice}}
{{#step_reserve}}<p class="dr-hint">[[Reserviere Karten aus der Mitte (Würfel gleicher Augenzahl) oder stiehl eine Reservierung mit mehr Würfeln; dann Sets ablegen.]]</p>{{/step_reserve}}
</div>
<h3>[[Deine Hand]]</h3>
{{#hand_empty}}<p class="dr-hint">[[Noch keine Karten: reservierte Karten kommen zu Beginn deines nächsten Zuges auf die Hand.]]</p>{{/hand_empty}}
<ul class="dr-cards dr-hand">
{{#hand}}<li><span class="dr-card{{#red}} dr-red{{/red}}" title="{{name}}"><span class="dr-rank" aria-hidden="true">{{rank}}</span><span class="dr-suit" aria-hidden="true">{{suit}}</span><span class="dr-vh">{{name}}</span></span></li>{{/hand}}
</ul>
{{#can_lay}}<details class="dr-lays"{{#few_lays}} open{{/few_lays}}>
<summary>[[Sets ablegen: {{lay_count}} Möglichkeiten]]</summary>
<div class="dr-actions">
{{#lay_moves}}{{>move_form}}{{/lay_moves}}
</div>
</details>{{/can_lay}}
<div class="dr-actions">
{{#done_move}}{{>move_form}}{{/done_move}}
</div>
</section>{{/has_hand}}

<section class="dr-players">
<h3>[[Mitspieler]]</h3>
<ul class="dr-seats">
{{#seats}}<li class="dr-seat{{#is_me}} dr-me{{/is_me}}{{#is_turn}} dr-turn{{/is_turn}}">
<p class="dr-who">{{seat_name}}{{#is_me}} [[(du)]]{{/is_me}}{{#is_turn}} <span class="dr-badge">[[am Zug]]</span>{{/is_turn}}
<span class="dr-counts">[[Handkarten: {{hand_count}} · Punkte: {{score:x-minus}}]]</span></p>
{{#show_dice}}<p class="dr-dice" aria-label="[[Würfel]]">{{#dice}}<span class="dr-die{{class}}">{{pip}}<span class="dr-vh">{{#kept}} [[(zur Seite gelegt)]]{{/kept}}{{#out}} [[(auf einer Karte)]]{{/out}}{{#unrolled}} [[(nicht gewürfelt)]]{{/unrolled}}</span></span>{{/dice}}</p>{{/show_dice}}
{{#reserved}}<div class="dr-reserved{{#last}} last{{/last}}"><span class="dr-card dr-small{{#red}} dr-red{{/red}}" title="{{name}}"><span class="dr-rank" aria-hidden="true">{{rank}}</span><span class="dr-suit" aria-hidden="true">{{suit}}</span><span class="dr-vh">{{name}}</span></span> [[reserviert mit {{count}}×]] <span class="dr-die dr-out">{{face}}</span>{{#last}} <span class="last-mark">{{last_text}}</span>{{/last}}
{{#moves}}{{>move_form}}{{/moves}}</div>{{/reserved}}
{{#melds}}<div class="dr-meld{{#last}} last{{/last}}"><span class="dr-meld-name">[[Set m{{number}} ({{points:x-minus}} P.):]]</span>{{#last}} <span class="last-mark">{{last_text}}</span>{{/last}}
{{#cards}}<span class="dr-card dr-small{{#red}} dr-red{{/red}}" title="{{name}}"><span class="dr-rank" aria-hidden="true">{{rank}}</span><span class="dr-suit" aria-hidden="true">{{suit}}</span><span class="dr-vh">{{name}}</span></span>{{/cards}}
{{#moves}}{{>move_form}}{{/moves}}</div>{{/melds}}
</li>{{/seats}}
</ul>
</section>

<section class="dr-log">
<h3>[[Zuletzt]]</h3>
<ol>{{#log}}<li>{{text}}</li>{{/log}}</ol>
</section>

<details class="dr-rules">
<summary>[[Kurzregeln und Regelentscheidungen]]</summary>
<ul>
<li>[[{{decks}}× 52 Karten. Vier liegen offen in der Mitte, der Rest ist der Nachziehstapel. Jede Person hat fünf Würfel; wer beginnt, lost der Tisch aus (statt „die meisten Schuppen“).]]</li>
<li>[[Ein Zug: reservierte Karten kommen auf die Hand, ihre Würfel zurück. Dann mit allen fünf Würfeln würfeln und nach jedem Wurf mindestens einen zur Seite legen, bis alle liegen.]]</li>
<li>[[Reservieren: eine Karte aus der Mitte mit einem oder mehreren Würfeln derselben Augenzahl.]] [[Stehlen: eine reservierte Karte einer anderen Person mit <strong>mehr</strong> Würfeln derselben Augenzahl]]{{#steal_any}}[[, <strong>an diesem Tisch</strong> auch mit mehr Würfeln beliebiger Augenzahl]]{{/steal_any}}{{#steal_higher}}[[, <strong>an diesem Tisch</strong> auch mit gleich vielen Würfeln höherer Augenzahl]]{{/steal_higher}}[[; deren Würfel gehen zurück.]]</li>
<li>[[Ablegen: mindestens drei Karten gleichen Werts in verschiedenen Farben, oder drei oder mehr einer Farbe in Folge; das As ist 1 oder As, nicht beides (kein K-A-2).]] [[Eigene Sets darf man erweitern.]] [[Danach wird die Mitte auf vier Karten aufgefüllt.]]</li>
<li>[[Ende: keine Karte mehr im Stapel, in der Mitte oder reserviert. Dann darf jede Person der Reihe nach noch einmal ablegen.]] [[Abgelegte 2–10 zählen 1, B, D, K, A 2 Punkte; jede Handkarte −1.]]</li>
</ul>
</details>
</div>
