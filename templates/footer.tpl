{{%AUTOESCAPE context="HTML"}}
</main>
<footer class="bottom">
<p>[[Spieltisch · fünf Spiele am runden Tisch, live oder über Tage.]]</p>
<nav class="langs" aria-label="[[Sprache]]">
{{#logged_in}}<form method="post" action="/me/lang" class="inline">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="back" value="{{back}}">
{{#langs}}<button type="submit" name="lang" value="{{code}}" class="link" lang="{{code}}">{{name}}</button>{{/langs}}
</form>{{/logged_in}}
{{#logged_out}}{{#langs}}<a href="{{url}}" hreflang="{{code}}" lang="{{code}}">{{name}}</a>{{/langs}}{{/logged_out}}
</nav>
</footer>
</body>
</html>
