module gatehouse

go 1.26.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
