{{%AUTOESCAPE context="XML"}}
<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{{lang}}">
<id>{{feed_id}}</id>
<title>[[Spieltisch: Tische von {{user_name}}]]</title>
<subtitle>[[Wo du dran bist, wie Partien und Matches ausgingen]]</subtitle>
<updated>{{updated}}</updated>
<author><name>Spieltisch</name></author>
<link rel="self" type="application/atom+xml" href="{{self_url}}"/>
<link rel="alternate" type="text/html" href="{{home_url}}"/>
<generator>Spieltisch</generator>
{{#entries}}
<entry>
<id>{{id}}</id>
<title>{{title}}</title>
<updated>{{updated}}</updated>
<link rel="alternate" type="text/html" href="{{url}}"/>
<summary>{{summary}}</summary>
</entry>
{{/entries}}
</feed>
