package upstream

import (
	"fmt"
	"os"
	"strings"
)

// EnvAliases names the environment variable holding folder aliases, in
// the --alias syntax: "folder=registry-name[,folder=registry-name...]".
const EnvAliases = "BFCL_UPSTREAM_ALIASES"

// ParseAliases reads alias specs "folder=registry-name" (each spec may
// hold several, comma-separated): the result folder is scored with the
// named entry's configuration. Unknown registry names and a folder aliased
// twice to different entries are errors.
func ParseAliases(specs ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, spec := range specs {
		for _, one := range strings.Split(spec, ",") {
			one = strings.TrimSpace(one)
			if one == "" {
				continue
			}
			folder, name, ok := strings.Cut(one, "=")
			folder, name = strings.TrimSpace(folder), strings.TrimSpace(name)
			if !ok || folder == "" || name == "" {
				return nil, fmt.Errorf("upstream alias %q: want folder=registry-name", one)
			}
			if _, known := Lookup(name); !known {
				return nil, fmt.Errorf("upstream alias %q: %q is not a model of upstream's registry (see `bfcl models --upstream`)", one, name)
			}
			folder = strings.ReplaceAll(folder, "/", "_")
			if prev, dup := out[folder]; dup && prev != name {
				return nil, fmt.Errorf("upstream alias %q: folder %s is already aliased to %s", one, folder, prev)
			}
			out[folder] = name
		}
	}
	return out, nil
}

// AliasesFromEnv is ParseAliases of $BFCL_UPSTREAM_ALIASES plus specs
// (flags); the flags come last and may repeat the environment's folders
// only with the same entry.
func AliasesFromEnv(specs ...string) (map[string]string, error) {
	all := specs
	if v := os.Getenv(EnvAliases); v != "" {
		all = append([]string{v}, specs...)
	}
	m, err := ParseAliases(all...)
	if err != nil && os.Getenv(EnvAliases) != "" {
		return nil, fmt.Errorf("%s or --alias: %w", EnvAliases, err)
	}
	return m, err
}
