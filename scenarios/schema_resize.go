package scenarios

// ResizeFault resizes a container of a pod in place, as `kubectl patch
// --subresource resize` does: the requests and limits it names replace the
// container's (a resource it leaves out keeps its value).
type ResizeFault struct {
	Pod       string              `yaml:"pod"`
	Namespace string              `yaml:"namespace"`
	Container string              `yaml:"container"`
	Requests  map[string]Quantity `yaml:"requests"`
	Limits    map[string]Quantity `yaml:"limits"`
}

// ContainerResizePolicy is one entry of a container's resizePolicy: what
// an in-place resize of the resource does to the container.
type ContainerResizePolicy struct {
	ResourceName  string `yaml:"resourceName"`
	RestartPolicy string `yaml:"restartPolicy"`
}
