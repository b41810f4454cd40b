# Data mining: the flow sizes of the VL2 paper's cluster (Greenberg et
# al., "VL2: A Scalable and Flexible Data Center Network", SIGCOMM 2009,
# Figure 2, flow size PDF/CDF), the workload pFabric (SIGCOMM 2013) calls
# data mining. The points are as the DCTCP and pFabric authors tabulated
# the figure for their traffic generator (github.com/datacenter/
# empirical-traffic-gen, file VL2_CDF). Half of the flows are under
# 1.1 KB; 2 % carry most bytes, up to 1 GB (mean 12.7 MB). Sizes in bytes.
#
# size      fraction
0           0
180         0.1
216         0.2
560         0.3
900         0.4
1100        0.5
1870        0.6
3160        0.7
10000       0.8
400000      0.9
3160000     0.95
100000000   0.98
1000000000  1
