{{%AUTOESCAPE context="HTML"}}
{{#can_invite}}<p class="invite" data-copy="[[Link kopieren]]" data-copied="[[Kopiert]]" data-share="[[Teilen]]">[[Einladungslink: <a class="invite-link" href="{{invite_path}}">{{invite_path}}</a> – schick ihn an deine Mitspieler. Die Partie beginnt, sobald alle Plätze besetzt sind.]]</p>
<form method="post" action="{{invite_url}}" class="invite-by-name">
<input type="hidden" name="csrf" value="{{csrf}}">
<label>[[Jemanden hier einladen]] <input name="name" required maxlength="24" autocomplete="off" placeholder="[[Name]]"></label>
<button type="submit">[[Einladen]]</button>
</form>
{{#has_invites}}<section class="invites" id="einladungen" aria-labelledby="invites-title">
<h3 id="invites-title">[[Eingeladen, noch nicht am Tisch]]</h3>
<ul class="invites">
{{#invites}}<li><a href="{{to_url}}">{{to}}</a> <span class="by">[[von {{from}}]]</span>
<form method="post" action="{{uninvite_url}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="invite" value="{{id}}"><button type="submit" aria-label="[[Einladung an {{to}} zurückziehen]]">[[Zurückziehen]]</button></form></li>
{{/invites}}</ul>
</section>{{/has_invites}}{{/can_invite}}
{{#link_only}}<p class="invite" data-copy="[[Link kopieren]]" data-copied="[[Kopiert]]" data-share="[[Teilen]]">[[Einladungslink: <a class="invite-link" href="{{invite_path}}">{{invite_path}}</a>. Die Partie beginnt, sobald alle Plätze besetzt sind.]]</p>{{/link_only}}
