{{%AUTOESCAPE context="HTML"}}
<form method="post" action="{{move_url}}" class="mv">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="v" value="{{v}}">
<button type="submit" name="move" value="{{move}}"{{#primary}} class="primary"{{/primary}}>{{label}}</button>
</form>
