{{%AUTOESCAPE context="HTML"}}
{{>header}}
<section class="card narrow">
<h1>[[Registrieren]]</h1>
{{#message}}<p class="note rejected" role="alert">{{text}}</p>{{/message}}
{{#mismatch}}<p class="note rejected" role="alert">[[Die beiden Passwörter stimmen nicht überein.]]</p>{{/mismatch}}
<form method="post" action="/register" class="stack">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="next" value="{{next}}">
<label>[[Name]] <small>[[(3 bis 24 Zeichen: Buchstaben, Ziffern, - _ .)]]</small>
<input name="name" value="{{name}}" autocomplete="username" required minlength="3" maxlength="48" autofocus></label>
<label>[[Passwort]] <small>[[(mindestens 8 Zeichen)]]</small>
<input name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="128"></label>
<label>[[Passwort wiederholen]]
<input name="password2" type="password" autocomplete="new-password" required minlength="8" maxlength="128"></label>
<button type="submit" class="primary">[[Konto anlegen]]</button>
</form>
<p>[[Schon ein Konto?]] <a href="/login">[[Anmelden]]</a></p>
</section>
{{>footer}}
