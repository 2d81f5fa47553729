{{! plain text, not escaped }}place,name,points,party_points,sonneborn_berger,tables,byes
{{#standings}}{{place}},{{name}},{{points}},{{party_points}},{{sb_dot}},{{played}},{{byes}}
{{/standings}}