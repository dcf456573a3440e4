// Package manifests reads Kubernetes manifests as they are kept for
// `kubectl apply -f`: YAML files of one or more documents, a v1 List, JSON,
// or a folder of them. It decodes each object strictly with the Kubernetes
// API types (k8s.io/api), reporting every problem as FILE:LINE:COL, and
// turns the objects podsim simulates (Pods, Deployments, ReplicaSets,
// StatefulSets, DaemonSets, Jobs, CronJobs, PodDisruptionBudgets, PriorityClasses,
// Services, HorizontalPodAutoscalers, Karpenter's NodePools) into the
// scenario's own types; every other kind is ignored with one warning, and
// every field that Kubernetes would act on and podsim does not simulate
// gets a warning at its line and column.
//
// It sits between scenarios and report: package scenarios defines the
// Includer hook that spec.include goes through, and knows nothing of the
// Kubernetes API; this package implements it, and Load reads any file
// podsim is given to run: a scenario (with its includes) or manifests run
// as they are.
package manifests

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/podsim/podsim/internal/yamlstrict"
	"github.com/podsim/podsim/scenarios"
	"go.yaml.in/yaml/v3"
)

// ErrorList holds every problem found, each FILE:LINE:COL: message.
type ErrorList = yamlstrict.ErrorList

// Reader reads manifests and scenarios. It keeps the objects of each
// manifest path it read, so that the cells of a study read their base
// scenario's includes once. It is not safe for concurrent use.
type Reader struct {
	read map[string]*scenarios.Objects
}

// NewReader returns a Reader that has read nothing yet.
func NewReader() *Reader { return &Reader{read: map[string]*scenarios.Objects{}} }

// Include reads the manifests at path, a file or a folder (its .yaml, .yml
// and .json files, in name order, not its subfolders: as kubectl apply -f
// DIR). It implements scenarios.Includer.
func (r *Reader) Include(path string) (*scenarios.Objects, error) {
	if objs, ok := r.read[path]; ok {
		return objs, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: yamlstrict.ErrText(err)}}
	}
	files := []string{path}
	if info.IsDir() {
		if files, err = manifestFiles(path); err != nil {
			return nil, err
		}
	}
	objs := &scenarios.Objects{}
	var errs ErrorList
	for _, f := range files {
		data, err := yamlstrict.ReadFile(f)
		if err != nil {
			var list ErrorList
			errors.As(err, &list)
			errs = append(errs, list...)
			continue
		}
		errs = append(errs, parse(f, data, objs)...)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	r.read[path] = objs
	return objs, nil
}

// manifestFiles lists the manifests of a folder.
func manifestFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, ErrorList{{File: dir, Msg: yamlstrict.ErrText(err)}}
	}
	var out []string
	for _, e := range entries { // sorted by name
		switch filepath.Ext(e.Name()) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	if len(out) == 0 {
		return nil, ErrorList{{File: dir, Msg: "no .yaml, .yml or .json files in this folder"}}
	}
	return out, nil
}

// Load reads what podsim is asked to run: a podsim scenario file, its
// spec.include read through r, or Kubernetes manifests (a file or a
// folder) run as they are, as a scenario named after the file. Its error
// is an ErrorList.
func (r *Reader) Load(path string) (*scenarios.Scenario, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		objs, err := r.Include(path)
		if err != nil {
			return nil, err
		}
		return scenarios.FromObjects(path, ScenarioName(path), objs)
	}
	data, err := yamlstrict.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return r.Parse(path, data)
}

// Parse is Load for a file already read (standard input): name names it
// in messages; include paths of a scenario are relative to it.
func (r *Reader) Parse(name string, data []byte) (*scenarios.Scenario, error) {
	if !IsManifest(data) {
		return scenarios.ParseIncluding(name, data, r)
	}
	objs := &scenarios.Objects{}
	if err := parse(name, data, objs).Err(); err != nil {
		return nil, err
	}
	return scenarios.FromObjects(name, ScenarioName(name), objs)
}

// IsManifest reports whether data holds Kubernetes objects rather than a
// podsim file: its first document has an apiVersion other than podsim/v1,
// or no apiVersion and a kind that is not a podsim kind.
func IsManifest(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return false
		}
		if len(doc.Content) == 0 || yamlstrict.IsNull(doc.Content[0]) {
			continue // an empty document before the first object
		}
		root := doc.Content[0]
		if root.Kind != yaml.MappingNode {
			return false
		}
		var apiVersion, kind *yaml.Node
		for i := 0; i+1 < len(root.Content); i += 2 {
			switch k, v := root.Content[i], root.Content[i+1]; {
			case v.Kind != yaml.ScalarNode:
			case k.Value == "apiVersion":
				apiVersion = v
			case k.Value == "kind":
				kind = v
			}
		}
		if apiVersion != nil {
			return apiVersion.Value != scenarios.APIVersion
		}
		return kind != nil && kind.Value != scenarios.KindScenario && kind.Value != scenarios.KindStudy
	}
}

var nameChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// ScenarioName is the name of the scenario of manifests run as they are:
// the file or folder name without its extension, as a DNS label
// ("My_App.yaml" is "my-app"); "manifests" if nothing is left.
func ScenarioName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	name := strings.Trim(nameChars().ReplaceAllString(strings.ToLower(base), "-"), "-")
	if len(name) > 63 {
		name = strings.TrimRight(name[:63], "-")
	}
	if name == "" {
		return "manifests"
	}
	return name
}

// parse reads the documents of one manifest file into objs.
func parse(file string, data []byte, objs *scenarios.Objects) ErrorList {
	src := scenarios.Source{Path: file, Pos: yamlstrict.NewPositions()}
	p := &parser{file: file, objs: objs, src: src}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if !errors.Is(err, io.EOF) {
				p.errs = append(p.errs, yamlstrict.SyntaxErrorIn(file, data, err))
			}
			break
		}
		if e := yamlstrict.CheckExpansion(file, &doc); e != nil {
			p.errs = append(p.errs, *e)
			break
		}
		if len(doc.Content) == 0 || yamlstrict.IsNull(doc.Content[0]) {
			continue // empty documents are skipped, as kubectl does
		}
		takenAt(&doc, objs)
		p.object(doc.Content[0], false)
	}
	objs.Sources = append(objs.Sources, src)
	p.errs.Sort()
	p.warns.Sort()
	objs.Warnings = append(objs.Warnings, p.warns...)
	return p.errs
}

// parser reads the objects of one file.
type parser struct {
	file  string
	objs  *scenarios.Objects
	src   scenarios.Source
	errs  ErrorList
	warns ErrorList
}

// object reads one object: a document, or an item of a List.
func (p *parser) object(n *yaml.Node, inList bool) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	at := yamlstrict.NodePos(n)
	if n.Kind == yaml.ScalarNode && !inList {
		// A whole document that is one string is a file of another
		// kind (/etc/passwd): quote nothing of it.
		p.errs.Add(p.file, at, "want a Kubernetes object (a mapping with apiVersion and kind), found plain text: not a manifest")
		return
	}
	if n.Kind != yaml.MappingNode {
		p.errs.Add(p.file, at, "want a Kubernetes object (a mapping with apiVersion and kind), found %s", yamlstrict.DescribeNode(n))
		return
	}
	fields := map[string]*yaml.Node{}
	pairs, errs := yamlstrict.Pairs(p.file, n)
	p.errs = append(p.errs, errs...)
	for _, pr := range pairs {
		if pr.Key != nil && pr.Key.Kind == yaml.ScalarNode {
			fields[pr.Key.Value] = pr.Value
		}
	}
	text := func(key string) string {
		if v := fields[key]; v != nil && v.Kind == yaml.ScalarNode && !yamlstrict.IsNull(v) {
			return v.Value
		}
		return ""
	}
	apiVersion, kind := text("apiVersion"), text("kind")
	switch {
	case apiVersion == scenarios.APIVersion:
		p.errs.Add(p.file, at, "a podsim/v1 %s among Kubernetes manifests: a scenario lists manifests under spec.include, not the other way round", kind)
		return
	case kind == "":
		p.errs.Add(p.file, at, "kind is required: a Kubernetes object has apiVersion and kind")
		return
	case apiVersion == "":
		p.errs.Add(p.file, at, "apiVersion is required: a Kubernetes object has apiVersion and kind")
		return
	case apiVersion == "v1" && kind == "List":
		if inList {
			p.errs.Add(p.file, at, "a List inside a List")
			return
		}
		p.list(n)
		return
	}
	info, known := kinds()[gvk{apiVersion, kind}]
	if !known {
		if served := servedAs(kind); len(served) > 0 && isBuiltinGroup(apiVersion) {
			p.errs.Add(p.file, yamlstrict.NodePos(fields["apiVersion"]), "%s %s is not served by Kubernetes v1.30 and later: use apiVersion %s", apiVersion, kind, strings.Join(served, " or "))
			return
		}
		if msg := unknownBuiltinKind(apiVersion, kind); msg != "" {
			p.errs.Add(p.file, yamlstrict.NodePos(fields["kind"]), "%s", msg)
			return
		}
		p.warns.Add(p.file, at, "warning: %s %s %s is ignored: podsim does not know this kind", apiVersion, kind, p.objectName(fields))
		return
	}
	c := &checker{file: p.file, active: map[*yaml.Node]bool{}}
	c.check(n, info.typ, info.as)
	p.errs = append(p.errs, c.errs...)
	if info.ignored != "" {
		p.warns.Add(p.file, at, "warning: %s %s %s is ignored: %s", apiVersion, kind, p.objectName(fields), info.ignored)
		return
	}
	p.warns = append(p.warns, c.warns...)
	if len(c.errs) > 0 || info.as == nil {
		return
	}
	obj := reflect.New(info.typ)
	if err := decodeJSON(p.file, n, obj.Interface()); err != nil {
		p.errs = append(p.errs, err...)
		return
	}
	conv := converter{}
	switch out := conv.object(obj.Interface()).(type) {
	case *scenarios.Pod:
		p.src.Pos.Locate(n, out)
		p.objs.Pods = append(p.objs.Pods, out)
	case *scenarios.Workload:
		p.src.Pos.Locate(n, out)
		p.objs.Workloads = append(p.objs.Workloads, out)
	case *scenarios.Node:
		p.src.Pos.Locate(n, out)
		p.objs.Nodes = append(p.objs.Nodes, out)
	}
	if conv.latest.After(p.objs.Instant) {
		p.objs.Instant = conv.latest
	}
	for _, e := range conv.errs {
		p.errs.Add(p.file, p.src.Pos.Of(e.at), "%s", e.msg)
	}
}

// list reads the items of a v1 List (as kubectl get -o yaml writes it).
func (p *parser) list(n *yaml.Node) {
	pairs, _ := yamlstrict.Pairs(p.file, n) // reported by object
	for _, pr := range pairs {
		switch key := pr.Key.Value; key {
		case "apiVersion", "kind":
		case "metadata":
			c := &checker{file: p.file, active: map[*yaml.Node]bool{}}
			c.check(pr.Value, reflect.TypeFor[listMeta](), nil)
			p.errs = append(p.errs, c.errs...)
		case "items":
			items := pr.Value
			for items.Kind == yaml.AliasNode && items.Alias != nil {
				items = items.Alias
			}
			if items.Kind != yaml.SequenceNode {
				if !yamlstrict.IsNull(items) {
					p.errs.Add(p.file, yamlstrict.NodePos(items), "items: expected a list of objects, found %s", yamlstrict.DescribeNode(items))
				}
				continue
			}
			for _, item := range items.Content {
				p.object(item, true)
			}
		default:
			msg := "unknown field " + strconv.Quote(key) + " in v1.List"
			if s := yamlstrict.SuggestName(key, []string{"apiVersion", "kind", "metadata", "items"}); s != "" {
				msg += "; did you mean " + strconv.Quote(s) + "?"
			}
			p.errs.Add(p.file, yamlstrict.NodePos(pr.Key), "%s", msg)
		}
	}
}

// listMeta is a List's metadata (metav1.ListMeta without importing
// apimachinery's meta package for one struct).
type listMeta struct {
	SelfLink           string `json:"selfLink"`
	ResourceVersion    string `json:"resourceVersion"`
	Continue           string `json:"continue"`
	RemainingItemCount *int64 `json:"remainingItemCount"`
}

// objectName is "ns/name", "name", or "(no name)", for warnings.
func (p *parser) objectName(fields map[string]*yaml.Node) string {
	m := fields["metadata"]
	for m != nil && m.Kind == yaml.AliasNode {
		m = m.Alias
	}
	var name, ns string
	if m != nil && m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			switch m.Content[i].Value {
			case "name":
				name = m.Content[i+1].Value
			case "namespace":
				ns = m.Content[i+1].Value
			}
		}
	}
	switch {
	case name == "":
		return "(no name)"
	case ns != "":
		return strconv.Quote(ns + "/" + name)
	}
	return strconv.Quote(name)
}

// decodeJSON decodes the object n into out, a pointer to its k8s.io/api
// type, through JSON, as the API server reads it. The checker has already
// reported anything that would fail here.
func decodeJSON(file string, n *yaml.Node, out any) ErrorList {
	v, errs := toJSON(file, n)
	if errs != nil {
		return errs
	}
	data, err := json.Marshal(v)
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(out)
	}
	if err != nil {
		return ErrorList{{File: file, Pos: yamlstrict.NodePos(n), Msg: "cannot decode the object: " + strings.TrimPrefix(err.Error(), "json: ")}}
	}
	return nil
}

// toJSON turns a YAML value into the values encoding/json writes: maps,
// slices, strings, numbers (json.Number, exact), booleans and nil,
// aliases and merge keys expanded.
func toJSON(file string, n *yaml.Node) (any, ErrorList) {
	var errs ErrorList
	active := map[*yaml.Node]bool{}
	var conv func(n *yaml.Node) any
	conv = func(n *yaml.Node) any {
		for n.Kind == yaml.AliasNode {
			if n.Alias == nil || active[n] {
				errs.Add(file, yamlstrict.NodePos(n), "anchor %q refers to itself", n.Value)
				return nil
			}
			active[n] = true
			defer delete(active, n)
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			pairs, perrs := yamlstrict.Pairs(file, n)
			errs = append(errs, perrs...)
			m := make(map[string]any, len(pairs))
			for _, pr := range pairs {
				m[pr.Key.Value] = conv(pr.Value)
			}
			return m
		case yaml.SequenceNode:
			s := make([]any, len(n.Content))
			for i, item := range n.Content {
				s[i] = conv(item)
			}
			return s
		}
		switch n.ShortTag() {
		case "!!null":
			return nil
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return b
			}
		case "!!int":
			if i, err := strconv.ParseInt(intText(n), 0, 64); err == nil {
				return json.Number(strconv.FormatInt(i, 10))
			}
			if u, err := strconv.ParseUint(intText(n), 0, 64); err == nil {
				return json.Number(strconv.FormatUint(u, 10))
			}
		case "!!float":
			var f float64
			if n.Decode(&f) == nil {
				if b, err := json.Marshal(f); err == nil {
					return json.Number(b)
				}
			}
		}
		return n.Value
	}
	v := conv(n)
	if errs != nil {
		slices.SortFunc(errs, func(a, b yamlstrict.Error) int { return a.Pos.Line - b.Pos.Line })
	}
	return v, errs
}
