# Web search: the response sizes of the DCTCP paper's production cluster
# (Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, Figure 4,
# "query traffic and background flows"), the workload pFabric (SIGCOMM
# 2013), HPCC (SIGCOMM 2019) and Homa (SIGCOMM 2018, "W5") call web
# search. The points are the figure's as the DCTCP and pFabric authors
# tabulated them for their traffic generator (github.com/datacenter/
# empirical-traffic-gen, file DCTCP_CDF) and as HPCC's artifact has them
# (alibaba-edu/High-Precision-Congestion-Control, traffic_gen/
# WebSearch_distribution.txt): the same sizes and fractions.
# Sizes in bytes; mean 1.7 MB with linear interpolation between points.
#
# size      fraction
0           0
10000       0.15
20000       0.20
30000       0.30
50000       0.40
80000       0.53
200000      0.60
1000000     0.70
2000000     0.80
5000000     0.90
10000000    0.97
30000000    1
