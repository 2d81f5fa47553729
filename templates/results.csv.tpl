{{! plain text, not escaped }}round,table,table_id,seat,name,place,points,party_points
{{#results}}{{round}},{{table}},{{table_id}},{{seat}},{{name}},{{place}},{{points}},{{party_points}}
{{/results}}