package serve

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteKubeconfig writes a kubeconfig whose one context, podsim, points at
// the server at http://addr in namespace default, without credentials
// (the server asks for none). It replaces path atomically.
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
	tmp, err := os.CreateTemp(filepath.Dir(path), ".kubeconfig-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(doc); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
