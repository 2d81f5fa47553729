{{%AUTOESCAPE context="HTML"}}
</main>
<footer class="bottom">
<p>Spieltisch · fünf Spiele am runden Tisch, live oder über Tage.</p>
</footer>
</body>
</html>
