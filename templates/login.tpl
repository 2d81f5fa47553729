{{%AUTOESCAPE context="HTML"}}
{{>header}}
<section class="card narrow">
<h1>[[Anmelden]]</h1>
{{#message}}<p class="note rejected" role="alert">{{text}}</p>{{/message}}
{{#throttled}}<p class="note rejected" role="alert">{{throttled_text}}</p>{{/throttled}}
<form method="post" action="/login" class="stack">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="next" value="{{next}}">
<label>[[Name]] <input name="name" value="{{name}}" autocomplete="username" required maxlength="48" autofocus></label>
<label>[[Passwort]] <input name="password" type="password" autocomplete="current-password" required maxlength="128"></label>
<button type="submit" class="primary">[[Anmelden]]</button>
</form>
<p>[[Noch kein Konto?]] <a href="/register">[[Registrieren]]</a></p>
</section>
{{>footer}}
