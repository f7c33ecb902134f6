// cronstrue's locale files have no types of their own; importing one only registers it.
declare module 'cronstrue/locales/*.js'
