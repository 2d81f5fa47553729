{{%AUTOESCAPE context="HTML"}}
{{>header}}
<section class="error">
<h1>{{#e400}}[[Die Anfrage war fehlerhaft]]{{/e400}}{{#e403}}[[Nicht erlaubt]]{{/e403}}{{#e404}}[[Nicht gefunden]]{{/e404}}{{#e405}}[[Falsche Methode]]{{/e405}}{{#e413}}[[Zu groß]]{{/e413}}{{#e415}}[[Falsches Format]]{{/e415}}{{#e429}}[[Zu viele Versuche]]{{/e429}}{{#e500}}[[Interner Fehler]]{{/e500}}{{#e503}}{{#why_nospace}}[[Kein Speicherplatz]]{{/why_nospace}}{{#why_corrupt}}[[Tisch beschädigt]]{{/why_corrupt}}{{#why_busy}}[[Gerade viel los]]{{/why_busy}}{{/e503}} <small>({{code}})</small></h1>
<p>
{{#why_escape}}[[Ein Prozentzeichen in der Anfrage war nicht von zwei Hex-Ziffern gefolgt.]]{{/why_escape}}
{{#why_utf8}}[[Die Anfrage enthielt Text, der kein gültiges UTF-8 ist.]]{{/why_utf8}}
{{#why_nul}}[[Die Anfrage enthielt ein Null-Zeichen.]]{{/why_nul}}
{{#why_key}}[[Ein Feldname der Anfrage war leer, zu lang oder enthielt unerlaubte Zeichen.]]{{/why_key}}
{{#why_repeated}}[[Ein Feld kam in der Anfrage doppelt vor.]]{{/why_repeated}}
{{#why_value_long}}[[Ein Feld der Anfrage war zu lang.]]{{/why_value_long}}
{{#why_too_many}}[[Die Anfrage hatte zu viele Felder.]]{{/why_too_many}}
{{#why_too_large}}[[Die Anfrage war größer, als wir annehmen (höchstens 16 KiB).]]{{/why_too_large}}
{{#why_body_type}}[[Formulare bitte als application/x-www-form-urlencoded senden.]]{{/why_body_type}}
{{#why_body_short}}[[Die Anfrage kam nicht vollständig an.]]{{/why_body_short}}
{{#why_unknown_field}}[[Die Anfrage enthielt ein Feld, das hier nicht vorgesehen ist.]]{{/why_unknown_field}}
{{#why_missing_field}}[[Der Anfrage fehlte ein Pflichtfeld.]]{{/why_missing_field}}
{{#why_invalid_field}}[[Ein Feld der Anfrage hatte einen ungültigen Wert.]]{{/why_invalid_field}}
{{#why_path}}[[Die Adresse war unvollständig.]]{{/why_path}}
{{#why_csrf}}[[Das Formular war abgelaufen oder kam nicht von dieser Seite. Bitte lade die Seite neu und versuche es noch einmal (Cookies müssen erlaubt sein).]]{{/why_csrf}}
{{#why_login}}[[Dafür musst du angemeldet sein.]]{{/why_login}}
{{#why_notfound}}[[Diese Seite gibt es nicht.]]{{/why_notfound}}
{{#why_notable}}[[Diesen Tisch gibt es nicht (mehr).]]{{/why_notable}}
{{#why_nowatch}}[[An diesem Tisch sind keine Zuschauer erlaubt: die laufende Partie sehen nur die, die mitspielen. Ist sie vorbei, kann sie jeder nachspielen.]]{{/why_nowatch}}
{{#why_method}}[[Diese Adresse kann so nicht aufgerufen werden.]]{{/why_method}}
{{#why_busy}}[[Die Datenbank war gerade belegt. Bitte versuche es gleich noch einmal.]]{{/why_busy}}
{{#why_nospace}}[[Der Server hat gerade keinen Speicherplatz mehr. Dein Zug (oder deine Eingabe) wurde <strong>nicht</strong> ausgeführt; versuche es später noch einmal.]]{{/why_nospace}}
{{#why_corrupt}}[[Dieser Tisch ist beschädigt: sein gespeicherter Spielstand lässt sich nicht mehr laden. Nichts wurde verändert; die anderen Tische sind nicht betroffen.]]{{/why_corrupt}}
{{#why_internal}}[[Etwas ist auf unserer Seite schiefgegangen. Bitte versuche es später noch einmal.]]{{/why_internal}}
</p>
<p>{{#why_login}}<a class="button" href="/login">[[Anmelden]]</a> {{/why_login}}<a href="/">[[Zur Lobby]]</a></p>
</section>
{{>footer}}
