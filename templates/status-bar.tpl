{{%AUTOESCAPE context="HTML"}}
<div class="status-bar {{kind}}" id="status-bar" role="status">
{{#has_mine}}<p class="status-mine">{{mine}}</p>{{/has_mine}}
<p class="status-text">{{text}}{{#countdown}} <span class="countdown" role="timer">{{#running}}[[noch <span data-countdown="{{seconds}}">{{seconds}}</span>&nbsp;s]]{{/running}}{{#renewed}}[[· neue Frist: noch <span data-countdown="{{seconds}}">{{seconds}}</span>&nbsp;s]]{{/renewed}}</span>{{/countdown}}</p>
<ul class="status-seats">
{{#seats}}<li class="status-seat{{#asked}} asked{{/asked}}{{#me}} me{{/me}}"><span class="status-name">{{name}}{{#me}} [[(du)]]{{/me}}</span>
{{#turn}}<span class="badge turn">[[am Zug]]</span>{{/turn}}{{#in_window}}<span class="badge window">[[kann noch eingreifen]]</span>{{/in_window}}{{#next}}<span class="badge">[[als Nächstes am Zug]]</span>{{/next}}{{#to_continue}}<span class="badge">[[noch nicht weiter]]</span>{{/to_continue}}
{{#has_clock}}<span class="clock{{#clock_running}} running{{/clock_running}}"><span aria-hidden="true">◷</span> <span class="sr-only">[[Uhr:]]</span> {{#clock_static}}{{clock}}{{/clock_static}}{{#clock_countdown}}<span data-countdown="{{clock_seconds}}">{{clock_seconds}}</span>&nbsp;s{{/clock_countdown}}{{#clock_running}} <small>[[läuft]]</small>{{/clock_running}}</span>{{/has_clock}}</li>
{{/seats}}</ul>
</div>
