package scenarios

import (
	"errors"
	"path/filepath"
)

// CreateFault adds the objects of Kubernetes manifests to the run at the
// fault's time, as `kubectl create -f FILE` does; podsim serve's create
// (kubectl create and apply) is this fault. File names a manifest file or
// folder, read as an entry of spec.include is (relative to the scenario
// file), whose objects are checked as a scenario of their own.
type CreateFault struct {
	File    string    `yaml:"file"`
	objects *Scenario // what File holds (or what NewCreateFault was given)
}

// NewCreateFault is the create fault of the objects of sc, a scenario read
// from manifests (serve's create).
func NewCreateFault(sc *Scenario) *CreateFault { return &CreateFault{objects: sc} }

// readCreates reads the manifests of the scenario's create faults through
// inc, each into a scenario of its objects; a problem is at the fault's
// file entry, or in the manifest at its line.
func (s *Scenario) readCreates(inc Includer) ErrorList {
	var errs ErrorList
	for i := range s.File.Spec.Faults {
		c := s.File.Spec.Faults[i].Create
		if c == nil || c.File == "" {
			continue
		}
		at := s.pos.Of(&c.File)
		if inc == nil {
			errs.Add(s.Path, at, "create %s: manifests are not read here (read the scenario with package manifests)", c.File)
			continue
		}
		path := c.File
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(s.Path), path)
		}
		objs, err := inc.Include(path)
		if err == nil {
			c.objects, err = FromObjects(path, s.File.Metadata.Name, objs)
		}
		var list ErrorList
		if err != nil && !errors.As(err, &list) {
			list = ErrorList{{Msg: err.Error()}}
		}
		for _, e := range list {
			if e.Pos.IsZero() {
				e = Error{File: s.Path, Pos: at, Msg: "create " + c.File + ": " + e.Msg}
			}
			errs = append(errs, e)
		}
	}
	return errs
}
