package upstream

import (
	"fmt"
	"strings"
)

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
