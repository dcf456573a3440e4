package snapshot

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// kubeconfig is the part of a kubeconfig file (clientcmd's v1 Config)
// that says where a context's API server is and how to log in.
type kubeconfig struct {
	CurrentContext string `yaml:"current-context"`
	Clusters       []struct {
		Name    string `yaml:"name"`
		Cluster struct {
			Server                   string `yaml:"server"`
			CertificateAuthority     string `yaml:"certificate-authority"`
			CertificateAuthorityData string `yaml:"certificate-authority-data"`
			InsecureSkipTLSVerify    bool   `yaml:"insecure-skip-tls-verify"`
			TLSServerName            string `yaml:"tls-server-name"`
		} `yaml:"cluster"`
	} `yaml:"clusters"`
	Contexts []struct {
		Name    string `yaml:"name"`
		Context struct {
			Cluster   string `yaml:"cluster"`
			User      string `yaml:"user"`
			Namespace string `yaml:"namespace"`
		} `yaml:"context"`
	} `yaml:"contexts"`
	Users []struct {
		Name string `yaml:"name"`
		User user   `yaml:"user"`
	} `yaml:"users"`
}

// user is a kubeconfig's credentials (AuthInfo).
type user struct {
	Token                 string     `yaml:"token"`
	TokenFile             string     `yaml:"tokenFile"`
	ClientCertificate     string     `yaml:"client-certificate"`
	ClientCertificateData string     `yaml:"client-certificate-data"`
	ClientKey             string     `yaml:"client-key"`
	ClientKeyData         string     `yaml:"client-key-data"`
	Username              string     `yaml:"username"`
	Password              string     `yaml:"password"`
	Exec                  *execAuth  `yaml:"exec"`
	AuthProvider          *yaml.Node `yaml:"auth-provider"`
}

// execAuth is a credential plugin (client.authentication.k8s.io), as
// cloud providers' kubeconfigs use: a command that prints an
// ExecCredential.
type execAuth struct {
	APIVersion string   `yaml:"apiVersion"`
	Command    string   `yaml:"command"`
	Args       []string `yaml:"args"`
	Env        []struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	} `yaml:"env"`
	InstallHint string `yaml:"installHint"`
}

// cluster is a context of a kubeconfig, resolved: its server, a client
// with its TLS and credentials, and its namespace.
type cluster struct {
	server    string
	namespace string
	client    *http.Client
	auth      func(*http.Request)
}

// DefaultKubeconfig is the kubeconfig kubectl reads by default: the first
// file of $KUBECONFIG, else ~/.kube/config.
func DefaultKubeconfig() string {
	if env := os.Getenv("KUBECONFIG"); env != "" {
		return filepath.SplitList(env)[0]
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".kube", "config")
}

// connect reads the kubeconfig at path and resolves context (its current
// context if ""). Paths in it are relative to its folder, as for kubectl.
func connect(ctx context.Context, path, context string) (*cluster, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var kc kubeconfig
	if err := yaml.Unmarshal(data, &kc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if context == "" {
		context = kc.CurrentContext
	}
	if context == "" {
		return nil, fmt.Errorf("%s: no current-context: name one with --context", path)
	}
	dir := filepath.Dir(path)
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	c := &cluster{namespace: "default"}
	var clusterName, userName string
	found := false
	var names []string
	for _, x := range kc.Contexts {
		names = append(names, x.Name)
		if x.Name == context {
			found, clusterName, userName = true, x.Context.Cluster, x.Context.User
			if x.Context.Namespace != "" {
				c.namespace = x.Context.Namespace
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%s: no context %q (it has: %s)", path, context, strings.Join(names, ", "))
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	found = false
	for _, x := range kc.Clusters {
		if x.Name != clusterName {
			continue
		}
		found = true
		cl := &x.Cluster
		c.server = strings.TrimSuffix(cl.Server, "/")
		tlsConf.InsecureSkipVerify = cl.InsecureSkipTLSVerify
		tlsConf.ServerName = cl.TLSServerName
		ca, err := pemOf(cl.CertificateAuthorityData, rel(cl.CertificateAuthority))
		if err != nil {
			return nil, fmt.Errorf("%s: cluster %s: certificate authority: %v", path, clusterName, err)
		}
		if ca != nil {
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(ca) {
				return nil, fmt.Errorf("%s: cluster %s: no certificate in its certificate authority", path, clusterName)
			}
			tlsConf.RootCAs = pool
		}
	}
	if !found || c.server == "" {
		return nil, fmt.Errorf("%s: context %s: no cluster %q with a server", path, context, clusterName)
	}
	c.auth = func(*http.Request) {}
	for _, x := range kc.Users {
		if x.Name == userName {
			if err := c.login(ctx, &x.User, rel, tlsConf); err != nil {
				return nil, fmt.Errorf("%s: user %s: %v", path, userName, err)
			}
		}
	}
	c.client = &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: tlsConf, Proxy: http.ProxyFromEnvironment}}
	return c, nil
}

// login sets the request's credentials of u: a bearer token (given, from
// a file, or from a credential plugin), a client certificate, or a user
// name and password.
func (c *cluster) login(ctx context.Context, u *user, rel func(string) string, tlsConf *tls.Config) error {
	if u.AuthProvider != nil {
		return errors.New("auth-provider plugins (gcp, azure, oidc) were removed from kubectl in v1.26: use its exec credential plugin")
	}
	token, certData, keyData := u.Token, u.ClientCertificateData, u.ClientKeyData
	if u.TokenFile != "" {
		b, err := os.ReadFile(rel(u.TokenFile))
		if err != nil {
			return err
		}
		token = strings.TrimSpace(string(b))
	}
	if u.Exec != nil {
		st, err := runExec(ctx, u.Exec)
		if err != nil {
			return err
		}
		token = st.Token
		if st.ClientCertificateData != "" {
			certData, keyData = base64.StdEncoding.EncodeToString([]byte(st.ClientCertificateData)), base64.StdEncoding.EncodeToString([]byte(st.ClientKeyData))
		}
	}
	cert, err := pemOf(certData, rel(u.ClientCertificate))
	if err != nil {
		return fmt.Errorf("client certificate: %v", err)
	}
	key, err := pemOf(keyData, rel(u.ClientKey))
	if err != nil {
		return fmt.Errorf("client key: %v", err)
	}
	if cert != nil {
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return fmt.Errorf("client certificate: %v", err)
		}
		tlsConf.Certificates = []tls.Certificate{pair}
	}
	switch {
	case token != "":
		c.auth = func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }
	case u.Username != "":
		c.auth = func(r *http.Request) { r.SetBasicAuth(u.Username, u.Password) }
	}
	return nil
}

// pemOf is base64 data if given, else the file's contents (nil if
// neither).
func pemOf(data, file string) ([]byte, error) {
	switch {
	case data != "":
		return base64.StdEncoding.DecodeString(data)
	case file != "":
		return os.ReadFile(file)
	}
	return nil, nil
}

// execStatus is an ExecCredential's status.
type execStatus struct {
	Token                 string `json:"token"`
	ClientCertificateData string `json:"clientCertificateData"`
	ClientKeyData         string `json:"clientKeyData"`
}

// runExec runs a credential plugin, not interactively, as client-go's
// exec authenticator does, and reads the ExecCredential it prints.
func runExec(ctx context.Context, e *execAuth) (*execStatus, error) {
	apiVersion := e.APIVersion
	if apiVersion == "" {
		apiVersion = "client.authentication.k8s.io/v1"
	}
	cmd := exec.CommandContext(ctx, e.Command, e.Args...)
	cmd.Env = os.Environ()
	for _, v := range e.Env {
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	info, _ := json.Marshal(map[string]any{"apiVersion": apiVersion, "kind": "ExecCredential", "spec": map[string]any{"interactive": false}})
	cmd.Env = append(cmd.Env, "KUBERNETES_EXEC_INFO="+string(info))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := fmt.Sprintf("credential plugin %s: %v: %s", e.Command, err, strings.TrimSpace(errb.String()))
		if e.InstallHint != "" {
			msg += "\n" + e.InstallHint
		}
		return nil, errors.New(msg)
	}
	var cred struct {
		Status *execStatus `json:"status"`
	}
	if err := json.Unmarshal(out.Bytes(), &cred); err != nil || cred.Status == nil {
		return nil, fmt.Errorf("credential plugin %s printed no ExecCredential with a status", e.Command)
	}
	return cred.Status, nil
}
