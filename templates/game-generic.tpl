{{%AUTOESCAPE context="HTML"}}
<div class="generic-board card">
<p class="headline">{{headline}}</p>
<ol class="steps">{{#log}}<li>{{text}}</li>{{/log}}</ol>
</div>
