# zsh -f zsh-capture.zsh FPATH_DIR LINE...: types each LINE and TAB into an interactive zsh on a
# pseudo-terminal (zpty) with the completion function of FPATH_DIR loaded by compinit, and prints
# what zsh printed: every match offered is wrapped as <h>MATCH</h> (compadd is wrapped to say
# so), and each line's matches end with <case>. The markers are typed split ("<""case>") so
# the echo of the typed command never looks like the marker.
# The emacs keymap (bindkey -e) whatever $EDITOR says: the driver types C-a C-k to clear a line.
zmodload zsh/zpty || exit 3
local out='' line='' n=0 text
zpty z zsh -f -i
zpty -w z "PS1='' PROMPT='' RPROMPT=''; fpath=(${(q)1} \$fpath)"
zpty -w z 'autoload -U compinit; compinit -u -D -d /dev/null'
zpty -w z 'compadd() { local -a h; builtin compadd -O h "$@"; print -rn -- "<h>"${^h}"</h>"; builtin compadd "$@"; }'
zpty -w z 'bindkey -e; zstyle ":completion:*" insert-tab false; bindkey "^I" complete-word; print "<""ready>"'
zpty -r z line '*<ready>*' >/dev/null
shift
for text in "$@"; do
  zpty -n -w z "$text"$'\t'
  zpty -w z $'\C-a\C-kprint "<""case>"'
done
zpty -w z 'print "<""done>"'
zpty -r z out '*<done>*'
zpty -d z
print -r -- "$out"
