module github.com/dop251/goja

go 1.20

require (
	github.com/Masterminds/semver/v3 v3.2.1
	github.com/dlclark/regexp2 v1.11.4
	github.com/dop251/goja_nodejs v0.0.0-20211022123610-8dd9abb0616d
	github.com/go-sourcemap/sourcemap v2.1.3+incompatible
	golang.org/x/text v0.3.8
	gopkg.in/yaml.v2 v2.4.0
)

require github.com/kr/pretty v0.3.0 // indirect
