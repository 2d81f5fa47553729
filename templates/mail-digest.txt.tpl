{{! plain text, not escaped }}Spieltisch: {{count}} {{#one}}[[Tisch wartet]]{{/one}}{{#many}}[[Tische warten]]{{/many}} [[auf dich]]
[[Hallo {{name}},]]

{{#one}}[[dieser Tisch wartet]]{{/one}}{{#many}}[[diese Tische warten]]{{/many}} [[auf deinen Zug:]]

{{#tables}}  [[Tisch {{id}} ({{game_title}}): {{url}}]]
{{/tables}}
[[Diese Mail kommt höchstens einmal am Tag, weil du auf deiner Seite]]
[[„Meine Tische“ die tägliche Zusammenfassung gewählt hast.]]
[[Einstellungen: {{me_url}}]]
[[Keine Mails mehr: {{off_url}}]]
