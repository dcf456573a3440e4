package serve

import (
	"fmt"
	"io"

	"github.com/podsim/podsim/scenarios"
)

// WriteKubeconfig writes a kubeconfig whose one context, podsim, points at
// the server at http://addr in namespace default, without credentials
// (the server asks for none). It replaces a file atomically and writes
// through to anything else (scenarios.WriteFile).
func WriteKubeconfig(path, addr string) error {
	doc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: podsim
  cluster:
    server: http://%s
contexts:
- name: podsim
  context:
    cluster: podsim
    namespace: default
    user: podsim
current-context: podsim
users:
- name: podsim
  user: {}
`, addr)
	return scenarios.WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, doc)
		return err
	})
}
