package core

// Bypass attempts through the utilities added last (tar -T/-X and crafted
// members below, over and hard-linked to protected paths, unzip, gzip -r,
// envsubst, shuf, rg --json, git over hidden paths) and through text the
// shell expands at run time (BASH_ENV, PS4, ${x@P}, array subscripts in
// quoted strings) (see bypass_test.go).

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/base64"
)

// craftTar builds a gzipped tar archive of hdrs (a regular member's body is
// its name's "x\n") and returns it in base64, for a line to decode.
func craftTar(hdrs ...tar.Header) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, h := range hdrs {
		body := []byte{}
		if h.Typeflag == tar.TypeReg {
			body = []byte("planted\n")
			h.Size = int64(len(body))
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(&h); err != nil {
			panic(err)
		}
		tw.Write(body)
	}
	tw.Close()
	zw.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// craftZip builds a zip archive of regular members named names.
func craftZip(names ...string) string {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			panic(err)
		}
		w.Write([]byte("planted\n"))
	}
	zw.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

var (
	tarLinkToHidden = craftTar(tar.Header{Name: "k", Typeflag: tar.TypeLink, Linkname: "vault/internal/root.key"})
	tarLinkToToken  = craftTar(tar.Header{Name: "k", Typeflag: tar.TypeLink, Linkname: "vault/aws.token"})
	tarLinkToDenied = craftTar(tar.Header{Name: "k", Typeflag: tar.TypeLink, Linkname: "data/team/deny.txt"})
	tarLinkToKey    = craftTar(tar.Header{Name: "k", Typeflag: tar.TypeLink, Linkname: "data/keys/a.key"})
	tarLinkAbs      = craftTar(tar.Header{Name: "k", Typeflag: tar.TypeLink, Linkname: "/vault/internal/root.key"})
	tarIntoHidden   = craftTar(tar.Header{Name: "vault/internal/planted", Typeflag: tar.TypeReg})
	tarDirHidden    = craftTar(tar.Header{Name: "vault/internal/", Typeflag: tar.TypeDir, Mode: 0o755})
	tarOverHidden   = craftTar(tar.Header{Name: "vault/internal/root.key", Typeflag: tar.TypeReg})
	zipIntoHidden   = craftZip("vault/internal/planted")
	zipOverHidden   = craftZip("vault/internal/root.key")
)

var bypassSweep = bypassTechnique{name: "new utilities and archives", cases: []bypassCase{
	hiddenCase("tar -cvf /tmp/d.tar -C /vault . 2>&1; tar -tvf /tmp/d.tar"),
	hiddenCase("tar -cf /tmp/d.tar -C /data . 2>&1; tar -tvf /tmp/d.tar"),
	hiddenCase("tar -cf /tmp/d.tar /host 2>&1; tar -tf /tmp/d.tar"),
	hiddenCase("printf '/vault/internal/root.key\\n' > /tmp/l; tar -cf /tmp/x.tar -T /tmp/l; echo $?; tar -tf /tmp/x.tar"),
	hiddenCase("tar -cf /tmp/x.tar -T /vault/internal/root.key; echo $?"),
	hiddenCase("tar -cf /tmp/x.tar --files-from=/vault/internal/lib.jq; echo $?"),
	secretCase("tar -cf /tmp/x.tar -T /vault/aws.token; echo $?"),
	secretCase("tar -cf /tmp/x.tar -X /vault/aws.token /work; echo $?; tar -tf /tmp/x.tar"),
	hiddenCase("tar -cf /tmp/x.tar -X /vault/internal/root.key /work; echo $?"),
	hiddenCase("tar -cf /tmp/w.tar -C /work notes.txt; tar -xf /tmp/w.tar -C /vault/internal/deeper; echo $?"),
	hiddenCase("tar -cf /tmp/w.tar -C /work notes.txt; tar -xf /tmp/w.tar -C /data/team/internal; echo $?"),
	hiddenCase("tar -cf /tmp/w.tar -C /work notes.txt; tar -xf /tmp/w.tar -C /host/team/private; echo $?"),
	hiddenCase("cd / && echo " + tarLinkToHidden + " | base64 -d | tar -xzvf -; echo $?; cat /k"),
	hiddenCase("cd /tmp && echo " + tarLinkAbs + " | base64 -d | tar -xzvf -; echo $?; cat /tmp/k"),
	hiddenCase("cd / && echo " + tarLinkToKey + " | base64 -d | tar -xzvf -; echo $?; cat /k"),
	secretCase("cd / && echo " + tarLinkToToken + " | base64 -d | tar -xzvf -; echo $?; cat /k"),
	secretCase("cd / && echo " + tarLinkToDenied + " | base64 -d | tar -xzvf -; echo $?; cat /k"),
	hiddenCase("cd / && echo " + tarIntoHidden + " | base64 -d | tar -xzvf -; echo $?"),
	hiddenCase("cd / && echo " + tarDirHidden + " | base64 -d | tar -xzvf -; echo $?"),
	hiddenCase("cd / && echo " + tarOverHidden + " | base64 -d | tar -xzvf -; echo $?"),
	hiddenCase("cd / && echo " + tarOverHidden + " | base64 -d | tar -xzvf - --overwrite; echo $?"),
	hiddenCase("cd / && echo " + tarOverHidden + " | base64 -d | tar -xzvf - --keep-old-files; echo $?"),
	hiddenCase("cd / && echo " + tarOverHidden + " | base64 -d | tar -xzvf - --skip-old-files; echo $?"),
	hiddenCase("cd / && echo " + tarOverHidden + " | base64 -d | tar -dzvf -; echo $?"),
	hiddenCase("cd /vault && tar -cf /tmp/v.tar . ; tar -df /tmp/v.tar; echo $?"),
	hiddenCase("tar -cf /tmp/w.tar -C /work notes.txt; tar -rf /tmp/w.tar /vault/internal/root.key; echo $?; tar -tf /tmp/w.tar"),
	hiddenCase("tar -cf /vault/internal/x.tar /work/notes.txt; echo $?"),
	hiddenCase("tar -tf /vault/internal/root.key; echo $?"),
	hiddenCase("echo " + zipIntoHidden + " | base64 -d > /tmp/z.zip; cd / && unzip -o /tmp/z.zip; echo $?"),
	hiddenCase("echo " + zipOverHidden + " | base64 -d > /tmp/z.zip; cd / && unzip -o /tmp/z.zip; echo $?"),
	hiddenCase("echo " + zipOverHidden + " | base64 -d > /tmp/z.zip; cd / && unzip -n /tmp/z.zip; echo $?"),
	hiddenCase("echo " + zipOverHidden + " | base64 -d > /tmp/z.zip; cd / && unzip /tmp/z.zip < /dev/null; echo $?"),
	hiddenCase("echo " + zipIntoHidden + " | base64 -d > /tmp/z.zip; unzip -o /tmp/z.zip -d /vault/internal/x; echo $?"),
	hiddenCase("unzip -l /vault/internal/root.key; echo $?"),
	hiddenCase("unzip -l /vault/internal/x.zip; echo $?"),
	hiddenCase("gzip -rv /vault 2>&1; echo $?; ls -R /vault"),
	hiddenCase("gzip -rv /data 2>&1; echo $?; find /data"),
	hiddenCase("gzip -rkv /host 2>&1; echo $?; find /host"),
	hiddenCase("gzip -c /vault/internal/root.key; echo $?"),
	hiddenCase("gzip -k /vault/internal/root.key; echo $?"),
	hiddenCase("zcat /vault/internal/root.key.gz; echo $?"),
	hiddenCase("gunzip -c /vault/internal/root.key; echo $?"),
	hiddenCase("gzip -l /vault/internal/root.key; echo $?"),
	hiddenCase("gzip -t /vault/internal/root.key; echo $?"),
	hiddenCase("cp /work/notes.txt /data/team/n; gzip -v -S /internal /data/team/n; echo $?"),
	varCase("echo 'x=$AWS_SECRET_ACCESS_KEY' | envsubst"),
	varCase("envsubst -v '$AWS_SECRET_ACCESS_KEY ${AWS_SECRET_ACCESS_KEY}'"),
	varCase("echo '${AWS_SECRET_ACCESS_KEY}' | AWS_SECRET_ACCESS_KEY=1 envsubst; export AWS_SECRET_ACCESS_KEY; echo '$AWS_SECRET_ACCESS_KEY' | envsubst"),
	secretCase("envsubst < /vault/aws.token"),
	secretCase("shuf --random-source=/vault/aws.token -i 1-50"),
	secretCase("shuf --random-source /vault/aws.token -e a b c d e f g h"),
	hiddenCase("shuf --random-source=/vault/internal/root.key -i 1-50; echo $?"),
	secretCase("shuf -n 1 /vault/aws.token"),
	hiddenCase("shuf -o /vault/internal/x -e a; echo $?"),
	hiddenCase("shuf -o /data/team/internal/x -e a; echo $?"),
	roCase("shuf -o /ro/frozen.txt -e a"),
	roCase("shuf -o /ro/frozen.txt /ro/frozen.txt"),
	secretCase("numfmt < /vault/aws.token"),
	secretCase("rg -U . /vault"),
	secretCase("rg --json . /vault/aws.token | sed 's/.elapsed[^}]*}//g'"),
	secretCase("rg -U --json '(?s).' /vault | sed 's/.elapsed[^}]*}//g'"),
	secretCase("rg -f /vault/aws.token /work"),
	secretCase("rg -z . /vault"),
	secretCase("rg --pre cat . /vault"),
	secretCase("rg -c '' /vault/aws.token; rg --files /vault"),
	hiddenCase("rg -U --json '' /vault | sed 's/.elapsed[^}]*}//g'; echo $?"),
	hiddenCase("rg --json '' /data /host | sed 's/.elapsed[^}]*}//g'; echo $?"),
	hiddenCase("rg --files / | sort; echo $?"),
	hiddenCase("rg --files --hidden --no-ignore /data /host /vault; echo $?"),
	hiddenCase("rg -U --files-without-match x /data; echo $?"),
	hiddenCase("rg -U --stats HIDDEN /data; echo $?"),
	hiddenCase("rg --ignore-file /vault/internal/root.key x /work; echo $?"),
	hiddenCase("rg ROOT /vault/internal/root.key; echo $?"),
	hiddenCase("rg --debug x /data 2>&1 | grep -v elapsed; echo $?"),
	hiddenCase("rg --trace x /data 2>&1 | grep -c private; echo $?"),
	hiddenCase("rg -L x /work; echo $?"),
	hiddenCase("set -x; cat /vault/internal/root.key; echo $_ $?"),
	hiddenCase("BASH_ENV=/vault/internal/root.key bash -c 'echo in'; echo $?"),
	secretCase("BASH_ENV=/vault/aws.token bash -c 'echo in'; echo $?"),
	secretCase("export BASH_ENV=/vault/aws.token; bash -c 'echo in'; echo $?"),
	secretCase("env BASH_ENV=/vault/aws.token bash -c 'echo in'; echo $?"),
	secretCase("BASH_ENV=/vault/aws.token bash /work/notes.txt; echo $?"),
	secretCase("ENV=/vault/aws.token sh -c 'echo in'; echo $?"),
	secretCase("ln -s /vault/aws.token /tmp/e; BASH_ENV=/tmp/e bash -c 'echo in'; echo $?"),
	secretCase("set -v; source /vault/aws.token; echo $?"),
	secretCase("bash -v /vault/aws.token; echo $?"),
	secretCase("bash -x /vault/aws.token; echo $?"),
	secretCase("echo x > >(cat /vault/aws.token)"),
	secretCase("echo x | tee >(cat - /vault/aws.token)"),
	secretCase("cat /work/notes.txt > >(cp /vault/aws.token /tmp/y); cat /tmp/y"),
	hiddenCase("cat /work/notes.txt > >(cat > /vault/internal/x); echo $?"),
	hiddenCase("echo x | tee >(cat > /data/team/internal/x) >/dev/null; echo $?; ls /data/team"),
	hiddenCase("bash /vault/internal/root.key; echo ${BASH_SOURCE[@]} $?"),
	hiddenCase("f() { echo ${BASH_SOURCE[@]}; }; source /vault/internal/lib.jq; f; echo $?"),
	secretCase("alias x='cat /vault/aws.token'; x"),
	secretCase("alias x=cat; eval 'x /vault/aws.token'"),
	secretCase("PS4='$(cat /vault/aws.token) '; set -x; true"),
	secretCase("PS4='$(</vault/aws.token) '; set -x; true"),
	secretCase("x='$(cat /vault/aws.token)'; echo ${x@P}"),
	secretCase("mapfile -C 'cat /vault/aws.token' -c 1 a <<< x; echo ${a[@]}"),
	secretCase("mapfile -C 'cat /vault/aws.token #' -c 1 a <<< x"),
	secretCase("a=(); [[ -v 'a[$(cat /vault/aws.token >&2)]' ]]"),
	secretCase("a=(); x='a[$(cat /vault/aws.token >&2)]'; echo ${!x}"),
	secretCase("a=(); x='$(cat /vault/aws.token >&2)'; (( a[$x] )); echo ${a[$x]}"),
	secretCase("declare -a a; read 'a[$(cat /vault/aws.token >&2)]' <<< v"),
	secretCase("declare -a a; printf -v 'a[$(cat /vault/aws.token >&2)]' v"),
	secretCase("declare -a a; unset 'a[$(cat /vault/aws.token >&2)]'"),
	secretCase("declare 'a[$(cat /vault/aws.token >&2)]=1'"),
	secretCase("let 'x=$(cat /vault/aws.token >&2)'"),
	secretCase("x='$(cat /vault/aws.token >&2)'; echo $(( x ))"),
	secretCase("x='a[$(cat /vault/aws.token >&2)]'; a=(); echo $(( x ))"),
	secretCase("x='$(cat /vault/aws.token >&2)'; [[ $x -eq 1 ]]"),
	secretCase("x='a[$(cat /vault/aws.token >&2)]'; declare -a a; [[ $x -eq 1 ]]"),
	secretCase("x='a[$(cat /vault/aws.token >&2)]'; test $x -eq 1"),
	secretCase("declare -n r='a[$(cat /vault/aws.token >&2)]'; a=(); echo $r"),
	secretCase("declare -i i; i='a[$(cat /vault/aws.token >&2)]'"),
	secretCase("a=(); x='a[$(cat /vault/aws.token >&2)]'; echo ${#x}; : ${x:=1}; : ${!x:=1}"),
	secretCase("select x in a; do break; done <<< 1 2>&1; PS3='$(cat /vault/aws.token)'; select x in a; do break; done <<< 1"),
	secretCase("trap 'cat /vault/aws.token' RETURN; f() { :; }; set -T; f"),
	secretCase("shopt -s extdebug; trap 'cat /vault/aws.token' DEBUG; true"),
	hiddenCase("compgen -f /vault/; compgen -G '/vault/*'; compgen -d /vault/; echo $?"),
	hiddenCase("shopt -s globstar dotglob nullglob; echo /vault/** /data/**; echo $?"),
	hiddenCase("cd /vault/internal; echo $? $PWD $OLDPWD; cd /vault/internal/..; echo $PWD"),
	hiddenCase("hash -p /vault/internal/root.key x; x; type x; hash -t x; echo $?"),
	hiddenCase("trap 'echo \"$BASH_COMMAND\"' DEBUG; cat /vault/internal/root.key; echo $?"),
	hiddenCase("cd /data && git init -q && git status --porcelain --ignored -uall; git add -A; git status --short"),
	hiddenCase("cd /data && git init -q && printf '*.key\\ninternal\\nvault2\\n' > .gitignore && git status --ignored --porcelain; git status --ignored=matching -uall"),
	hiddenCase("cd /data && git init -q && printf '*.key\\n' > .gitignore && git check-ignore -v keys/a.key team/internal/key keys/b.key; echo $?; git check-ignore --no-index -v -n keys/a.key vault2/material; echo $?"),
	hiddenCase("cd /data && git init -q && git add -A && git -c user.name=a -c user.email=a@b commit -qm i && git ls-files && git ls-tree -r HEAD && git clean -ndx; git stash -u; git stash list"),
	hiddenCase("cd /host && git init -q && git add -A && git status --short --ignored; git clean -ndx"),
	hiddenCase("cd /data && git init -q && git add -A && git -c user.name=a -c user.email=a@b commit -qm i && git mv team/readme team/internal/readme; echo $?; git status --short"),
	hiddenCase("cd /data && git init -q && git add -A && git -c user.name=a -c user.email=a@b commit -qm i && git rm -r -n team keys; git grep -n . ; git diff --stat HEAD"),
}}
