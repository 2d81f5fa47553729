{{! plain text, not escaped }}# spieltisch replay 1
game {{game}}
table {{table}}
party {{party}}
players {{players}}
dealer {{dealer}}
seed {{seed}}
options {{options}}
{{#steps}}step {{seat}} {{at}} {{text}}
{{/steps}}position {{position}}
scores{{#scores}} {{score}}{{/scores}}
