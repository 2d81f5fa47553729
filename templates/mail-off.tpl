{{%AUTOESCAPE context="HTML"}}
{{>header}}
<h1>[[E-Mails abbestellen]]</h1>
<section class="card mail-off">
{{#ask}}
<p>[[Spieltisch schickt Benachrichtigungen an <strong>{{address}}</strong>. Willst du keine mehr bekommen?]]</p>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit">[[Keine E-Mails mehr]]</button>
</form>
{{/ask}}
{{#already_off}}<p>[[An <strong>{{address}}</strong> gehen keine Benachrichtigungen.]]</p>{{/already_off}}
{{#done}}<p role="status">[[Erledigt: An <strong>{{address}}</strong> gehen keine Benachrichtigungen mehr. Auf deiner Seite „Meine Tische“ kannst du sie wieder einschalten.]]</p>{{/done}}
</section>
{{>footer}}
