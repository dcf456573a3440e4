package scenarios

import "github.com/podsim/podsim/internal/yamlstrict"

// ContainerPort is an entry of a container's ports. podsim simulates no
// network; a port's name is what an httpGet or tcpSocket probe may name
// as its port, and its number is what the probe's message shows.
type ContainerPort struct {
	Name          string `yaml:"name"`
	ContainerPort int32  `yaml:"containerPort"`
}

func init() { yamlstrict.Declare(portFields) }

func portFields() {
	Ignore[ContainerPort]("protocol", "hostPort", "hostIP")
}
