{{! plain text, not escaped }}[[Spieltisch: Tisch {{table_id}} ({{game_title}}) wartet auf dich]]
[[Hallo {{name}},]]

[[am Tisch {{table_id}} ({{game_title}}) bist du dran:]]

  {{table_url}}

[[Diese Mail kommt, weil du auf deiner Seite „Meine Tische“ eine Mail pro Zug]]
[[gewählt hast. Einstellungen: {{me_url}}]]
[[Keine Mails mehr: {{off_url}}]]
