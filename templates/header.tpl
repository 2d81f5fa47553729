{{%AUTOESCAPE context="HTML"}}
<!DOCTYPE html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{#title_alert}}{{text}} · {{/title_alert}}{{#acting}}({{n}}) {{/acting}}{{#p_lobby}}[[Lobby]]{{/p_lobby}}{{#p_me}}[[Meine Tische]]{{/p_me}}{{#p_login}}[[Anmelden]]{{/p_login}}{{#p_register}}[[Registrieren]]{{/p_register}}{{#p_error}}[[Fehler]]{{/p_error}}{{#p_mail_off}}[[E-Mails abbestellen]]{{/p_mail_off}}{{title}} · Spieltisch</title>
<link rel="stylesheet" href="/static/site.css">
{{#game_css}}<link rel="stylesheet" href="/static/game-{{slug}}.css">{{/game_css}}
<link rel="icon" href="/static/{{favicon}}" type="image/svg+xml">
{{#refresh}}<noscript><meta http-equiv="refresh" content="5; url={{url}}"></noscript>{{/refresh}}
{{#poll}}<script src="/static/idiomorph.min.js" defer></script>{{/poll}}
<script src="/static/poll.js" defer></script>
</head>
<body{{#poll}} data-poll="{{poll_url}}" data-table="{{table_url}}" data-version="{{version}}" data-alert="{{alert}}" data-fresh="[[(neu)]]"{{#live}} data-live="{{live_url}}"{{/live}}{{/poll}}>
<header class="top">
<a class="brand" href="/">Spieltisch</a>
<nav>
<a href="/tournaments">[[Turniere]]</a>
{{#logged_in}}
<a href="/me">[[Meine Tische]]</a>
<span class="who">{{user_name}}</span>
<form method="post" action="/logout" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit" class="link">[[Abmelden]]</button>
</form>
{{/logged_in}}
{{#logged_out}}
<a href="/login">[[Anmelden]]</a>
<a href="/register">[[Registrieren]]</a>
{{/logged_out}}
</nav>
</header>
<main>
