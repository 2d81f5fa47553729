{{! plain text, not escaped }}# spieltisch replay 1
game {{game}}
table {{table}}
party {{party}}
players {{players}}
dealer {{dealer}}
seed {{seed}}
options {{options}}
{{#steps}}step {{seat}} {{at}} {{text}}
{{/steps}}{{#closed}}closed draw
{{/closed}}position {{position}}
scores{{#scores}} {{score}}{{/scores}}
