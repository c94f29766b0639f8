#!/usr/bin/env python3
"""Generates data/demo/archive.json, the demo archive embedded into journal-market.

Deterministic (random.Random(4663)), standard library only. Run from anywhere:

    python3 data/demo/generate.py

The format is described in docs/import-format.md; the script checks the rules it relies on
after writing the file and prints one summary line.
"""

import json
import os
import random
import re
import uuid
from datetime import date, datetime, timedelta, timezone

R = random.Random(4663)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "archive.json")

FIRST_DAY = date(2026, 8, 1)
LAST_DAY = date(2026, 11, 21)
PREFIX = "JM"

# ---------------------------------------------------------------------------------------------
# Companies, their people, products and stories
# ---------------------------------------------------------------------------------------------

C = {
    "NVDA": {
        "name": "NVIDIA Corporation",
        "short": "NVIDIA",
        "cik": 1045810,
        "price": 180.0,
        "entries": 90,
        "handles": ["nvidianewsroom", "nvidia", "NVIDIADC", "NVIDIAAI", "nvidiagtc"],
        "execs": [("Jensen Huang", "chief executive"), ("Colette Kress", "chief financial officer"),
                  ("Ian Buck", "vice president of hyperscale and HPC"), ("Debora Shoquist", "executive vice president of operations")],
        "analysts": [("Vivek Arya", "BofA Securities"), ("Joseph Moore", "Morgan Stanley"),
                     ("Stacy Rasgon", "Bernstein"), ("Harlan Sur", "J.P. Morgan"), ("Ben Reitzes", "Melius Research")],
        "partners": ["Foxconn", "Quanta", "Wistron", "Supermicro", "Dell", "TSMC", "SK Hynix", "Micron"],
        "customers": ["Microsoft", "Meta", "Oracle", "CoreWeave", "xAI", "Amazon Web Services", "Google Cloud"],
        "metric": "data-center revenue",
        "qends": ["2026-04-26", "2026-07-26", "2026-10-25"],
        "stories": [
            ("nvda-blackwell-ramp", "Blackwell ramp", [
                ("GB300 rack shipments run ahead of plan at {partner}",
                 "GB300 NVL72 rack shipments at {partner} are running ahead of NVIDIA's internal plan, at roughly {n},000 racks a quarter", {"n": [5, 6, 7]}),
                ("Blackwell Ultra yields improve as liquid-cooling issues ease",
                 "Blackwell Ultra yields improved through the quarter after earlier liquid-cooling leaks in the NVL72 racks were traced to a supplier's quick-disconnect fittings"),
                ("{customer} takes delivery of first Blackwell Ultra clusters",
                 "{customer} has taken delivery of its first Blackwell Ultra clusters and plans to bring about {n}0,000 GPUs online by year-end"),
                ("CoWoS-L capacity remains the pacing item for Blackwell",
                 "TSMC's CoWoS-L packaging capacity remains the pacing item for Blackwell output, with NVIDIA said to have booked about {pct}% of next year's supply", {"pct": [55, 60, 65]}),
                ("Blackwell accounts for {pct}% of data-center compute revenue",
                 "Blackwell products accounted for about {pct}% of NVIDIA's data-center compute revenue in the latest quarter", {"pct": [78, 82, 85, 88]}),
            ]),
            ("nvda-rubin-roadmap", "Rubin roadmap", [
                ("Rubin GPUs taped out, on track for 2027 volume",
                 "the Rubin GPU and Vera CPU have taped out at TSMC and remain on track for volume production in 2027"),
                ("NVIDIA details Vera Rubin NVL144 rack at partner event",
                 "NVIDIA detailed the Vera Rubin NVL144 rack, promising roughly {x}x the inference throughput of GB300 NVL72", {"x": [3]}),
                ("HBM4 qualification for Rubin moves to {partner}",
                 "{partner} has begun final qualification of HBM4 stacks for Rubin, with samples shipping in volume next quarter"),
                ("Rubin CPX aimed at long-context inference",
                 "the Rubin CPX accelerator targets long-context inference workloads and is due at the end of 2026"),
            ]),
            ("nvda-china-export-rules", "China export rules", [
                ("Commerce weighs licences for scaled-down Blackwell in China",
                 "the Commerce Department is weighing licences for a scaled-down Blackwell part for Chinese customers"),
                ("NVIDIA writes down H20 inventory by ${n}00 million",
                 "NVIDIA recorded a charge of about ${n}00 million tied to H20 inventory and purchase commitments"),
                ("Chinese regulators discourage purchases of NVIDIA accelerators",
                 "Chinese regulators have told large internet companies to pause new orders of NVIDIA accelerators"),
                ("China revenue falls to {pct}% of data-center sales",
                 "China fell to roughly {pct}% of NVIDIA's data-center revenue, down from more than 20% two years earlier", {"pct": [3, 4, 5]}),
            ]),
            ("nvda-sovereign-ai", "Sovereign AI deals", [
                ("NVIDIA and {country} agree on national AI factory",
                 "NVIDIA and the government of {country} agreed to build a national AI factory with about {n}0,000 Blackwell GPUs"),
                ("Sovereign AI revenue on pace for ${n} billion this year",
                 "sovereign AI customers are on pace to contribute about ${n} billion of NVIDIA revenue this fiscal year", {"n": [18, 20, 22]}),
                ("Gulf data-center deals add to Blackwell backlog",
                 "a set of Gulf data-center agreements adds several hundred thousand Blackwell GPUs to the multi-year backlog"),
                ("European telecoms line up for NVIDIA-based AI clouds",
                 "a group of European telecom operators plans NVIDIA-based AI clouds, citing data-residency rules"),
            ]),
        ],
        "countries": ["Saudi Arabia", "the United Arab Emirates", "Germany", "France", "Japan", "India", "the United Kingdom"],
    },
    "TSLA": {
        "name": "Tesla, Inc.",
        "short": "Tesla",
        "cik": 1318605,
        "price": 350.0,
        "entries": 64,
        "handles": ["Tesla", "Tesla_AI", "teslaenergy", "robotaxi", "Tesla_Optimus"],
        "execs": [("Elon Musk", "chief executive"), ("Vaibhav Taneja", "chief financial officer"),
                  ("Ashok Elluswamy", "head of Autopilot software"), ("Lars Moravy", "vice president of vehicle engineering")],
        "analysts": [("Dan Ives", "Wedbush"), ("Adam Jonas", "Morgan Stanley"), ("Ryan Brinkman", "J.P. Morgan"),
                     ("Mark Delaney", "Goldman Sachs"), ("Gary Black", "Future Fund")],
        "partners": ["CATL", "Panasonic", "LG Energy Solution", "Samsung", "TSMC"],
        "customers": ["utilities in Texas", "PG&E", "a Japanese utility", "Uber drivers", "fleet operators"],
        "metric": "automotive gross margin",
        "qends": ["2026-06-30", "2026-09-30"],
        "stories": [
            ("tsla-robotaxi-rollout", "Robotaxi rollout", [
                ("Robotaxi service expands to {city}",
                 "Tesla's robotaxi service expanded to {city}, initially with safety monitors in the passenger seat and a fleet of about {n}0 Model Y"),
                ("Tesla removes safety monitors from some Austin rides",
                 "Tesla began offering some robotaxi rides in Austin without a safety monitor on board"),
                ("NHTSA asks Tesla for robotaxi incident data",
                 "the National Highway Traffic Safety Administration asked Tesla for data on {n} robotaxi incidents reported since June"),
                ("Cybercab pilot line starts at Giga Texas",
                 "a pilot production line for the two-seat Cybercab has started at Giga Texas, with volume planned for 2027"),
                ("Robotaxi app opens to the public in {city}",
                 "the Robotaxi app opened to the public in {city}, removing the invitation-only waitlist"),
            ]),
            ("tsla-margin-squeeze", "Margin squeeze", [
                ("Automotive gross margin slips to {m}% excluding credits",
                 "automotive gross margin excluding regulatory credits slipped to {m}% as price cuts and tariff costs outweighed lower cell costs", {"m": [15, 16, 17]}),
                ("Regulatory-credit revenue falls as rules loosen",
                 "regulatory-credit revenue fell to about ${n}00 million after U.S. emissions penalties were eliminated", {"n": [2, 3, 4]}),
                ("Tesla cuts Model Y prices in {region}",
                 "Tesla cut Model Y prices in {region} by about {pct}%, its second cut this year", {"pct": [3, 4, 5, 6]}),
                ("Tariffs add ${n}00 million to quarterly costs",
                 "tariffs on imported parts added about ${n}00 million to Tesla's quarterly costs, mostly in the automotive segment", {"n": [3, 4]}),
            ]),
            ("tsla-optimus-program", "Optimus program", [
                ("Optimus V3 prototype shown to employees",
                 "Tesla showed employees a third-generation Optimus prototype with a redesigned {n}-actuator hand", {"n": [22, 26]}),
                ("Optimus production line targets {n},000 units next year",
                 "Tesla is building an Optimus line in Fremont that targets about {n},000 humanoid robots next year", {"n": [5, 8, 10]}),
                ("Optimus program head departs",
                 "the head of the Optimus program has left Tesla, and the team now reports to {exec}"),
                ("Tesla sources actuators from Chinese suppliers for Optimus",
                 "Tesla has placed actuator orders with Chinese suppliers for the Optimus ramp, according to people familiar with the plans"),
            ]),
            ("tsla-energy-storage", "Energy storage growth", [
                ("Megapack deployments reach {x} GWh in the quarter",
                 "Tesla deployed {x} GWh of energy storage in the quarter, a record for the business", {"x": ["9.6", "10.4", "12.5"]}),
                ("Shanghai Megafactory ships first Megapacks abroad",
                 "the Shanghai Megafactory shipped its first Megapacks to customers outside China"),
                ("Megapack 3 and Megablock unveiled for utilities",
                 "Tesla unveiled Megapack 3 and the Megablock, aimed at utility-scale projects starting in 2026"),
                ("LFP cell plant in Nevada begins production",
                 "Tesla's LFP cell line in Nevada began production to reduce reliance on imported cells for storage products"),
            ]),
        ],
        "cities": ["Austin", "the San Francisco Bay Area", "Phoenix", "Las Vegas", "Miami", "Dallas", "Houston"],
        "regions": ["China", "Europe", "the United States", "Canada", "South Korea"],
    },
    "AAPL": {
        "name": "Apple Inc.",
        "short": "Apple",
        "cik": 320193,
        "price": 230.0,
        "entries": 62,
        "handles": ["Apple", "tim_cook", "AppleSupport", "gregjoz", "AppleNews"],
        "execs": [("Tim Cook", "chief executive"), ("Kevan Parekh", "chief financial officer"),
                  ("Craig Federighi", "senior vice president of software engineering"), ("Greg Joswiak", "senior vice president of worldwide marketing"),
                  ("John Ternus", "senior vice president of hardware engineering")],
        "analysts": [("Erik Woodring", "Morgan Stanley"), ("Amit Daryanani", "Evercore ISI"), ("Samik Chatterjee", "J.P. Morgan"),
                     ("Wamsi Mohan", "BofA Securities"), ("Krish Sankar", "TD Cowen")],
        "partners": ["Foxconn", "TSMC", "Luxshare", "Tata Electronics", "Broadcom", "Samsung Display"],
        "customers": ["carriers in the U.S.", "Chinese retailers", "enterprise buyers"],
        "metric": "services revenue",
        "qends": ["2026-06-27", "2026-09-26"],
        "stories": [
            ("aapl-services-growth", "Services growth", [
                ("Services revenue hits record ${n} billion",
                 "services revenue reached a record ${n} billion, up {pct}% from a year earlier", {"n": [27, 28, 29], "pct": [12, 13, 14, 15]}),
                ("Court ruling puts Google search payments in focus",
                 "a court ruling on search defaults leaves Apple's roughly $20 billion a year in Google payments intact but under closer scrutiny"),
                ("App Store fees face new EU review",
                 "the European Commission opened a new review of App Store fees under the Digital Markets Act"),
                ("Apple raises Apple TV+ price to ${m}",
                 "Apple raised the monthly price of Apple TV+ to ${m} in the U.S. and several other markets", {"m": ["12.99"]}),
            ]),
            ("aapl-iphone-17-cycle", "iPhone 17 cycle", [
                ("iPhone 17 lead times stretch to {n} weeks",
                 "lead times for the iPhone 17 Pro Max stretched to about {n} weeks in the U.S. and China", {"n": [3, 4, 5]}),
                ("iPhone Air demand softer than expected, suppliers say",
                 "suppliers say orders for the thin iPhone Air were trimmed after softer than expected early demand"),
                ("Apple lifts iPhone 17 production by {pct}%",
                 "Apple asked suppliers to raise iPhone 17 production by about {pct}% for the holiday quarter", {"pct": [8, 10, 12]}),
                ("India assembly reaches {pct}% of U.S.-bound iPhones",
                 "assembly in India now accounts for about {pct}% of iPhones shipped to the United States", {"pct": [70, 78, 85]}),
            ]),
            ("aapl-apple-intelligence", "Apple Intelligence", [
                ("Revamped Siri pushed to spring release",
                 "the revamped, more personal Siri is now planned for a spring release alongside iOS 26.4"),
                ("Apple weighs outside models to power Siri",
                 "Apple is weighing the use of an outside large language model to power parts of Siri, running on Private Cloud Compute"),
                ("Apple Intelligence launches in {n} more languages",
                 "Apple Intelligence features became available in {n} more languages with the latest software update"),
                ("AI research head leaves for rival lab",
                 "a senior Apple foundation-models researcher has left for a rival AI lab, the latest in a string of departures"),
            ]),
            ("aapl-tariffs-and-supply", "Tariffs and supply chain", [
                ("Apple expects ${n}.{m} billion in tariff costs this quarter",
                 "Apple expects tariff-related costs of about ${n}.{m} billion in the current quarter", {"n": [1], "m": [1, 4, 5]}),
                ("Apple expands U.S. manufacturing pledge to $600 billion",
                 "Apple expanded its U.S. investment pledge to $600 billion over four years, including a domestic chip supply program"),
                ("Semiconductor tariff exemption covers Apple components",
                 "a proposed semiconductor tariff would exempt companies building in the U.S., which Apple says covers its components"),
                ("{partner} adds capacity in India for Apple",
                 "{partner} is adding a production line in India dedicated to Apple products"),
            ]),
        ],
    },
    "MSFT": {
        "name": "Microsoft Corporation",
        "short": "Microsoft",
        "cik": 789019,
        "price": 430.0,
        "entries": 63,
        "handles": ["Microsoft", "satyanadella", "Azure", "MSFTCopilot", "BradSmi"],
        "execs": [("Satya Nadella", "chief executive"), ("Amy Hood", "chief financial officer"),
                  ("Scott Guthrie", "executive vice president of cloud and AI"), ("Judson Althoff", "chief executive of the commercial business"),
                  ("Mustafa Suleyman", "chief executive of Microsoft AI")],
        "analysts": [("Keith Weiss", "Morgan Stanley"), ("Brent Thill", "Jefferies"), ("Mark Moerdler", "Bernstein"),
                     ("Kash Rangan", "Goldman Sachs"), ("Brad Zelnick", "Deutsche Bank")],
        "partners": ["OpenAI", "NVIDIA", "AMD", "Nebius", "Lambda", "Constellation Energy"],
        "customers": ["Accenture", "Barclays", "Lumen", "the U.S. General Services Administration", "UBS"],
        "metric": "Azure growth",
        "qends": ["2026-06-30", "2026-09-30"],
        "stories": [
            ("msft-azure-capacity", "Azure capacity", [
                ("Azure growth of {pct}% limited by capacity, Hood says",
                 "Azure and other cloud services grew {pct}% in constant currency, and Amy Hood said growth would have been higher with more capacity", {"pct": [38, 39, 40]}),
                ("Microsoft signs ${n} billion GPU capacity deal with {partner}",
                 "Microsoft agreed to buy about ${n} billion of GPU capacity from {partner} over five years", {"n": [9, 14, 17, 19], "partner": ["Nebius", "Lambda", "Nscale", "IREN"]}),
                ("Fairwater AI datacenter in Wisconsin comes online",
                 "the Fairwater AI datacenter in Wisconsin began operating with hundreds of thousands of GB200 GPUs"),
                ("Capital spending rises to ${n} billion in the quarter",
                 "capital expenditures including finance leases rose to about ${n} billion in the quarter, with roughly half for short-lived assets", {"n": [30, 33, 35]}),
            ]),
            ("msft-copilot-adoption", "Copilot adoption", [
                ("Microsoft 365 Copilot seats pass {n} million",
                 "paid Microsoft 365 Copilot seats passed {n} million, with several customers above 100,000 seats", {"n": [15, 18, 21]}),
                ("Copilot bundled into consumer Microsoft 365 with price rise",
                 "Microsoft bundled Copilot into consumer Microsoft 365 plans and raised their price by ${m} a month", {"m": ["3"]}),
                ("{customer} rolls out Copilot to all employees",
                 "{customer} is rolling out Microsoft 365 Copilot to all of its employees after a pilot"),
                ("GitHub Copilot reaches {n} million users",
                 "GitHub Copilot has reached {n} million users, with enterprise customers up about {pct}% in a quarter", {"n": [20, 26], "pct": [40, 75]}),
            ]),
            ("msft-openai-partnership", "OpenAI partnership", [
                ("Microsoft and OpenAI sign new definitive agreement",
                 "Microsoft and OpenAI signed a new definitive agreement that gives Microsoft about a 27% stake in the restructured OpenAI"),
                ("OpenAI commits to ${n}0 billion of Azure services",
                 "OpenAI committed to purchase an additional ${n}0 billion of Azure services", {"n": [25]}),
                ("Microsoft books ${n}.{m} billion loss on OpenAI equity stake",
                 "Microsoft recorded a ${n}.{m} billion loss from its share of OpenAI's results under the equity method", {"n": [3, 4], "m": [1, 5]}),
                ("AGI clause to be verified by expert panel",
                 "under the new terms, any OpenAI declaration of AGI will be verified by an independent expert panel"),
            ]),
            ("msft-gaming-reset", "Gaming reset", [
                ("Xbox raises Game Pass Ultimate price to ${m}",
                 "Xbox raised the price of Game Pass Ultimate to ${m} a month in the U.S.", {"m": ["29.99"]}),
                ("Xbox content and services revenue up {pct}%",
                 "Xbox content and services revenue rose {pct}%, while hardware revenue fell about 20%", {"pct": [13, 16, 22]}),
                ("Microsoft cuts {n}00 jobs in gaming division",
                 "Microsoft cut about {n}00 jobs in its gaming division and cancelled two unannounced projects", {"n": [9, 12, 18]}),
                ("Call of Duty launch tops Game Pass engagement charts",
                 "the latest Call of Duty release became the most-played launch on Game Pass this year"),
            ]),
        ],
    },
    "PLTR": {
        "name": "Palantir Technologies Inc.",
        "short": "Palantir",
        "cik": 1321655,
        "price": 118.0,
        "entries": 58,
        "handles": ["PalantirTech", "ssankar", "PalantirUS", "PalantirAIP"],
        "execs": [("Alex Karp", "chief executive"), ("David Glazer", "chief financial officer"),
                  ("Shyam Sankar", "chief technology officer"), ("Ryan Taylor", "chief revenue officer")],
        "analysts": [("Brent Thill", "Jefferies"), ("Mariana Perez Mora", "BofA Securities"), ("Dan Ives", "Wedbush"),
                     ("Brian White", "Monness Crespi"), ("Keith Weiss", "Morgan Stanley")],
        "partners": ["Anduril", "Lumen", "Accenture Federal", "Snowflake", "Databricks", "Boeing"],
        "customers": ["the U.S. Army", "the NHS", "a large U.S. hospital network", "Lear", "Fannie Mae", "NATO"],
        "metric": "U.S. commercial revenue",
        "qends": ["2026-06-30", "2026-09-30"],
        "stories": [
            ("pltr-aip-bootcamps", "AIP bootcamps", [
                ("U.S. commercial revenue up {pct}% as AIP demand spreads",
                 "U.S. commercial revenue rose {pct}% from a year earlier, driven by AIP deployments that began in bootcamps", {"pct": [85, 93, 121]}),
                ("Palantir closes {n} deals worth over $1 million in the quarter",
                 "Palantir closed {n} deals of at least $1 million in the quarter, including several above $10 million", {"n": [157, 180, 204]}),
                ("{customer} expands AIP use after five-day bootcamp",
                 "{customer} expanded its use of AIP across operations after a five-day bootcamp"),
                ("Total contract value reaches ${n}.{m} billion",
                 "total contract value booked in the quarter reached ${n}.{m} billion, a company record", {"n": [2], "m": [3, 7, 8]}),
            ]),
            ("pltr-army-enterprise-deal", "Army enterprise agreement", [
                ("Army enterprise agreement worth up to $10 billion",
                 "the U.S. Army consolidated dozens of contracts into an enterprise agreement worth up to $10 billion over ten years"),
                ("Maven Smart System ceiling raised to ${n} billion",
                 "the Pentagon raised the ceiling on the Maven Smart System contract to about ${n} billion", {"n": ["1.3"]}),
                ("Army memo flags security gaps in NGC2 prototype",
                 "an Army memo flagged security gaps in the Next Generation Command and Control prototype built with {partner}"),
                ("NATO buys Maven Smart System",
                 "NATO acquired the Maven Smart System for its Allied Command Operations"),
            ]),
            ("pltr-valuation-debate", "Valuation debate", [
                ("Shares trade at {n}0 times forward sales",
                 "Palantir shares trade at roughly {n}0 times forward sales, the highest multiple in the S&P 500", {"n": [8, 9, 10, 11]}),
                ("{analyst_firm} starts Palantir at underperform",
                 "{analyst_firm} started coverage at underperform, arguing the valuation already prices in a decade of growth"),
                ("Short seller discloses position against Palantir",
                 "a well-known short seller disclosed put options against Palantir and questioned the durability of AIP growth"),
                ("Palantir joins the ten most valuable U.S. companies by some measures",
                 "Palantir's market value briefly passed ${n}00 billion, placing it among the ten most valuable U.S. technology companies", {"n": [4, 5]}),
            ]),
            ("pltr-uk-and-nato", "UK and NATO expansion", [
                ("Palantir commits up to £1.5 billion to UK defence work",
                 "Palantir committed to invest up to £1.5 billion in the UK and create a European defence headquarters in London"),
                ("NHS federated data platform reaches {n}0 trusts",
                 "the NHS Federated Data Platform is now live at about {n}0 hospital trusts", {"n": [10, 12, 14]}),
                ("UK Ministry of Defence signs strategic partnership",
                 "the UK Ministry of Defence signed a strategic partnership with Palantir covering targeting and decision support"),
                ("European revenue growth lags U.S. at {pct}%",
                 "international commercial revenue grew only about {pct}%, well behind the U.S. business", {"pct": [8, 12, 15]}),
            ]),
        ],
    },
    "AMD": {
        "name": "Advanced Micro Devices, Inc.",
        "short": "AMD",
        "cik": 2488,
        "price": 162.0,
        "entries": 61,
        "handles": ["AMD", "LisaSu", "AMDInstinct", "AMDServer", "AMDRyzen"],
        "execs": [("Lisa Su", "chief executive"), ("Jean Hu", "chief financial officer"),
                  ("Forrest Norrod", "head of the data center solutions group"), ("Vamsi Boppana", "senior vice president of AI")],
        "analysts": [("Vivek Arya", "BofA Securities"), ("Stacy Rasgon", "Bernstein"), ("Harsh Kumar", "Piper Sandler"),
                     ("Joshua Buchalter", "TD Cowen"), ("Timothy Arcuri", "UBS")],
        "partners": ["TSMC", "Samsung", "SK Hynix", "Sanmina", "Celestica"],
        "customers": ["Oracle", "Meta", "OpenAI", "Microsoft", "xAI", "Crusoe", "Vultr"],
        "metric": "data-center segment revenue",
        "qends": ["2026-06-27", "2026-09-26"],
        "stories": [
            ("amd-mi350-launch", "MI350 launch", [
                ("MI355X shipments ramp with {customer}",
                 "MI355X accelerator shipments are ramping, with {customer} among the first large deployments"),
                ("MI350 series claims {x}x inference gain over MI300X",
                 "AMD says the MI350 series delivers up to {x}x the inference performance of the MI300X on large language models", {"x": [35]}),
                ("ROCm 7 release narrows software gap",
                 "the ROCm 7 release adds distributed-inference support and closes part of the software gap with CUDA"),
                ("Instinct revenue expected to reach ${n} billion this year",
                 "analysts now expect Instinct GPU revenue of about ${n} billion this year", {"n": [6, 7, 8]}),
            ]),
            ("amd-openai-deal", "OpenAI deal", [
                ("AMD and OpenAI agree on 6-gigawatt GPU deployment",
                 "AMD and OpenAI agreed on a multi-year deal to deploy 6 gigawatts of Instinct GPUs, starting with MI450 in 2026"),
                ("OpenAI receives warrant for up to 160 million AMD shares",
                 "OpenAI received a warrant for up to 160 million AMD shares that vests as deployment milestones are met"),
                ("First gigawatt of MI450 deployment set for second half of 2026",
                 "the first gigawatt of MI450 deployment for OpenAI is scheduled for the second half of 2026"),
                ("Analysts model ${n}0 billion revenue from OpenAI agreement",
                 "analysts model roughly ${n}0 billion of cumulative revenue from the OpenAI agreement over four years", {"n": [10]}),
            ]),
            ("amd-epyc-share-gains", "EPYC share gains", [
                ("EPYC server share climbs to {pct}% of revenue",
                 "AMD's EPYC processors reached about {pct}% of server CPU revenue, according to Mercury Research", {"pct": [39, 41, 43]}),
                ("Venice EPYC on 2nm samples to customers",
                 "the Venice generation of EPYC, built on TSMC's 2nm process, is sampling to customers ahead of a 2026 launch"),
                ("{customer} standardises on EPYC for new cloud instances",
                 "{customer} standardised on fifth-generation EPYC for its newest general-purpose cloud instances"),
                ("Client CPU revenue up {pct}% on Ryzen demand",
                 "client segment revenue rose {pct}% on demand for Ryzen desktop processors", {"pct": [46, 52, 67]}),
            ]),
            ("amd-export-controls", "Export controls", [
                ("AMD takes ${n}00 million charge on MI308 export curbs",
                 "AMD took a charge of about ${n}00 million for MI308 inventory after new export licence requirements", {"n": [8]}),
                ("Licences granted for some MI308 sales to China",
                 "the Commerce Department granted licences for some MI308 sales to Chinese customers, subject to a revenue-sharing arrangement"),
                ("China data-center sales excluded from AMD guidance",
                 "AMD's guidance excludes any MI308 revenue from China"),
                ("Export rules tighten for advanced chips to Middle East",
                 "new export rules tighten licensing for advanced accelerators shipped to parts of the Middle East"),
            ]),
        ],
    },
}

TICKERS = list(C)

# Generic (story-less) items per company: (title, claim).
GENERIC = [
    ("{analyst_firm} raises {short} price target to ${target}",
     "{analyst} at {analyst_firm} raised the price target on {short} to ${target}, citing {metric}"),
    ("{analyst_firm} trims {short} estimates ahead of results",
     "{analyst} at {analyst_firm} trimmed near-term estimates for {short} but kept a positive rating, pointing to {metric}"),
    ("{short} shares move {pct}% as investors weigh {metric}",
     "{short} shares moved about {pct}% in a session as investors weighed the outlook for {metric}"),
    ("{exec} speaks at {conference}",
     "{exec}, {role}, told the {conference} that demand remains strong and that the company is investing ahead of it"),
    ("{short} schedules quarterly results for {results_day}",
     "{short} will report quarterly results on {results_day} after the market close"),
    ("{short} options activity points to large expected move",
     "options pricing implies a move of about {pct}% in {short} shares around the next earnings report"),
]

CONFERENCES = ["Goldman Sachs Communacopia + Technology Conference", "Morgan Stanley Technology, Media & Telecom Conference",
               "Citi Global TMT Conference", "UBS Global Technology Conference", "Bernstein Strategic Decisions Conference",
               "Deutsche Bank Technology Conference"]

OUTLETS = ["Reuters", "Bloomberg", "CNBC", "Financial Times", "The Information", "The Verge"]
OUTLET_W = [30, 25, 18, 12, 9, 6]

NEWS_SUMMARY_2 = [
    "The report cites {people}.",
    "{short} declined to comment.",
    "{short} did not respond to a request for comment.",
    "{analyst} at {analyst_firm} called it {adj} for the stock.",
    "The shares moved {pct}% on the report.",
    "It is the first time the figure has been reported.",
]
PEOPLE = ["people familiar with the matter", "two people with knowledge of the plans", "supply-chain sources",
          "documents seen by the outlet", "a person briefed on the discussions", "three current and former employees"]
ADJ = ["a modest positive", "a clear positive", "a near-term headwind", "largely priced in", "an underappreciated risk",
       "incrementally negative", "an important signal"]

NEWS_SAYS = [
    "{Short}, which reports in {results_month}, has not commented publicly on the details.",
    "{exec}, {role}, has said the company is \"investing for the next decade, not the next quarter.\"",
    "{analyst}, an analyst at {analyst_firm}, said the development {effect}.",
    "The company's {metric} has been the main focus for investors this year.",
    "Shares of {short} have {move} this year, compared with a {idx}% rise in the Nasdaq 100.",
    "The information could not be independently confirmed.",
    "A spokesperson for {short} pointed to the company's most recent earnings call.",
    "Rivals are expected to respond with their own announcements in the coming weeks.",
    "The details were shared with {partner} and other suppliers earlier this month.",
    "Investors will look for an update on the next earnings call.",
]
EFFECTS = ["could add a point or two to growth next year", "was not yet reflected in consensus estimates",
           "reduces one of the main risks to the bull case", "raises questions about near-term margins",
           "confirms what the supply chain has been signalling for weeks", "matters more for 2027 than for this year"]

POST_SAYS_OPEN = ["{claim_cap}.", "Update: {claim}.", "Big milestone for the team: {claim}.", "Proud to share that {claim}."]
POST_SAYS_MORE = [
    "Thanks to our partners and customers who made this possible.",
    "More details in the thread below.",
    "Full announcement on our newsroom.",
    "This is just the beginning.",
    "We'll share more at our next event.",
    "Huge effort from the engineering and operations teams.",
    "Link to the replay is in the reply.",
]

FILING_FORMS = {  # form: weight for story-less filings
    "Form 4": 40, "8-K": 20, "S-8": 12, "DEF 14A": 8, "10-Q": 20,
}


def fill(template, ctx):
    return template.format(**ctx)


def cap(s):
    return s[0].upper() + s[1:] if s else s


def url_slug(text, limit=70):
    s = re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")
    return s[:limit].rstrip("-")


def ctx_for(t, d):
    """A fresh set of interchangeable parts for one entry of ticker t dated d."""
    c = C[t]
    ex = R.choice(c["execs"])
    an = R.choice(c["analysts"])
    qend = max(q for q in c["qends"] if date.fromisoformat(q) < d - timedelta(days=0)) if any(
        date.fromisoformat(q) < d for q in c["qends"]) else c["qends"][0]
    results = d + timedelta(days=R.randint(10, 40))
    return {
        "short": c["short"], "Short": c["short"], "name": c["name"], "metric": c["metric"],
        "exec": ex[0], "role": ex[1], "analyst": an[0], "analyst_firm": an[1],
        "partner": R.choice(c["partners"]), "customer": R.choice(c["customers"]),
        "country": R.choice(c.get("countries", ["Japan"])), "city": R.choice(c.get("cities", ["Austin"])),
        "region": R.choice(c.get("regions", ["Europe"])),
        "n": R.randint(2, 9), "m": R.choice([5, 6, 7, 8, 9, 12, 15, 17, 19]), "x": R.choice([2, 3, 4, 5, 7, 10]),
        "pct": R.choice([2, 3, 4, 5, 6, 7, 8, 9]),
        "target": int(round(c["price"] * R.uniform(1.05, 1.35) / 5) * 5),
        "conference": R.choice(CONFERENCES), "results_day": results.strftime("%B %-d"),
        "results_month": results.strftime("%B"), "qend": qend,
        "people": R.choice(PEOPLE), "adj": R.choice(ADJ), "effect": R.choice(EFFECTS),
        "move": R.choice(["risen about 18%", "gained roughly a third", "slipped 6%", "risen 41%", "been roughly flat",
                          "climbed 27%", "fallen 9%"]),
        "idx": R.choice([12, 14, 17, 19]),
    }


# ---------------------------------------------------------------------------------------------
# Sittings
# ---------------------------------------------------------------------------------------------

SITTING_DAYS = {38: date(2026, 11, 18), 39: date(2026, 11, 19), 40: date(2026, 11, 20), 41: date(2026, 11, 21),
                42: date(2026, 11, 22)}
SITTING_NOTES = {
    38: "Busy Wednesday; NVDA results preview crowded the wires, three duplicate leads merged.",
    39: "Post-earnings sitting for NVDA; filings desk caught two Form 4s late.",
    40: "Quiet Friday; two filings merged, one X account rate-limited.",
    41: "Weekend sitting; mostly posts, one journal held back for a second source.",
}


def z(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def at(d, h, m=0, s=0):
    return datetime(d.year, d.month, d.day, h, m, s, tzinfo=timezone.utc)


sittings = []
for sid, d in SITTING_DAYS.items():
    start = at(d, 6)
    fin = None if sid == 42 else start + timedelta(minutes=R.randint(30, 50), seconds=R.randint(0, 59))
    sittings.append({"id": sid, "date": d.isoformat(), "started_at": z(start), "finished_at": z(fin) if fin else None,
                     "note": SITTING_NOTES.get(sid, "In progress."),
                     "leads": R.randint(30, 70) if fin else 0, "filed": R.randint(10, 25) if fin else 0,
                     "spend_usd": round(R.uniform(1.8, 5.9), 2) if fin else 0.0, "log": []})
SITTING_BY_ID = {s["id"]: s for s in sittings}


def sitting_for(d):
    for sid, sd in SITTING_DAYS.items():
        if sd >= d:
            return sid
    return max(SITTING_DAYS)


# ---------------------------------------------------------------------------------------------
# Entries
# ---------------------------------------------------------------------------------------------

companies = [{"ticker": t, "name": C[t]["name"]} for t in TICKERS]
stories = [{"slug": s[0], "ticker": t, "title": s[1]} for t in TICKERS for s in C[t]["stories"]]

DAYS = [FIRST_DAY + timedelta(days=i) for i in range((LAST_DAY - FIRST_DAY).days + 1)]
KINDS = ["news", "post", "filing"]
KIND_W = [40, 35, 25]


def x_status_id(dt):
    ms = int(dt.timestamp() * 1000)
    return str(((ms - 1288834974657) << 22) | R.getrandbits(22))


def news_url(outlet, title, d):
    s = url_slug(title)
    if outlet == "Reuters":
        sect = R.choice(["technology", "business", "markets/us", "business/autos-transportation"])
        return f"https://www.reuters.com/{sect}/{s}-{d.isoformat()}/"
    if outlet == "Bloomberg":
        return f"https://www.bloomberg.com/news/articles/{d.isoformat()}/{s}"
    if outlet == "CNBC":
        return f"https://www.cnbc.com/{d.year}/{d.month:02d}/{d.day:02d}/{s}.html"
    if outlet == "Financial Times":
        return f"https://www.ft.com/content/{uuid.UUID(int=R.getrandbits(128), version=4)}"
    if outlet == "The Information":
        return f"https://www.theinformation.com/articles/{s}"
    return f"https://www.theverge.com/news/{R.randint(700000, 860000)}/{s}"


def make_filing(t, d, ctx, item, form):
    """Filing title/summary/says. item is a story (title, claim) or None."""
    c = C[t]
    ctx = dict(ctx)
    if item is not None:
        claim = fill(item[1], ctx)
        if form == "8-K":
            title = f"8-K: {fill(item[0], ctx)}"
            summary = f"In an 8-K filed with the SEC, {c['short']} disclosed that {claim}."
            says = (f"Item 7.01 Regulation FD Disclosure. {c['name']} (the \"Company\") furnishes the information below. "
                    f"The Company reports that {claim}. "
                    f"The information in this Item 7.01 shall not be deemed \"filed\" for purposes of Section 18 of the Securities Exchange Act of 1934. "
                    f"Forward-looking statements are subject to risks described in the Company's most recent Form 10-Q.")
        else:
            title = f"10-Q: {fill(item[0], ctx)}"
            summary = (f"{c['short']}'s quarterly report for the period ended {ctx['qend']} says {claim}. "
                       f"The filing adds detail not given on the earnings call.")
            says = (f"Quarterly report on Form 10-Q for the quarterly period ended {ctx['qend']}. "
                    f"Management's Discussion and Analysis notes that {claim}. "
                    f"{cap(c['metric'])} remained the largest driver of change compared with the prior-year period. "
                    f"Risk factors were updated to reflect supply, regulatory and competitive conditions. "
                    f"There were no material changes to the Company's critical accounting estimates.")
        return title, summary, says
    ex = ctx["exec"]
    if form == "Form 4":
        shares = R.randint(2, 90) * 1000 + R.randint(0, 999)
        price = round(c["price"] * R.uniform(0.9, 1.1), 2)
        title = f"Form 4: {ex} sells {shares:,} shares"
        summary = (f"{ex}, {ctx['role']}, sold {shares:,} {c['short']} shares at an average price of about ${price:,.2f}, "
                   f"under a Rule 10b5-1 trading plan.")
        says = (f"Statement of changes in beneficial ownership. Reporting person: {ex}, officer ({ctx['role']}). "
                f"Transaction code S: sale of {shares:,} shares of common stock at a weighted average price of ${price:,.2f}. "
                f"The sales were effected pursuant to a Rule 10b5-1 trading plan adopted earlier in the year. "
                f"Following the reported transactions the reporting person directly owns {R.randint(200, 9000) * 1000:,} shares.")
    elif form == "8-K":
        ev = R.choice([
            ("amends revolving credit facility", "entered into an amendment extending its revolving credit facility to 2031 and raising commitments to $" + str(R.randint(3, 12)) + " billion"),
            ("announces board appointment", "appointed a new independent director to its board, effective immediately, who will join the audit committee"),
            ("announces $" + str(R.randint(10, 60)) + " billion share repurchase authorisation", "authorised an additional share repurchase program without an expiration date"),
            ("furnishes quarterly results", "furnished its results of operations and financial condition for the quarter ended " + ctx["qend"]),
        ])
        title = f"8-K: {c['short']} {ev[0]}"
        summary = f"{c['short']} filed an 8-K saying it {ev[1]}."
        says = (f"Current report pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934. "
                f"On {(d - timedelta(days=R.randint(0, 3))).strftime('%B %-d, %Y')}, {c['name']} {ev[1]}. "
                f"A copy of the related document is filed as Exhibit 99.1 and incorporated by reference. "
                f"The Company does not undertake to update the information except as required by law.")
    elif form == "S-8":
        n = R.randint(4, 60)
        title = f"S-8 registers {n} million shares for employee equity plan"
        summary = f"{c['short']} registered {n} million additional shares for issuance under its employee equity incentive plan."
        says = (f"Registration statement under the Securities Act of 1933. {c['name']} is filing this Form S-8 to register "
                f"{n},000,000 additional shares of common stock issuable under its amended equity incentive plan. "
                f"The increase was approved by stockholders at the most recent annual meeting. "
                f"Documents incorporated by reference include the Company's latest annual report on Form 10-K.")
    elif form == "DEF 14A":
        mtg = d + timedelta(days=R.randint(35, 60))
        prop = R.choice(["an advisory vote on executive pay", "a shareholder proposal on AI risk reporting",
                         "the re-election of all directors", "a proposal to allow shareholders to act by written consent"])
        title = f"DEF 14A: annual meeting set for {mtg.strftime('%B %-d')}"
        summary = f"{c['short']}'s proxy statement sets the annual meeting for {mtg.strftime('%B %-d, %Y')} and includes {prop}."
        says = (f"Notice of annual meeting of stockholders to be held virtually on {mtg.strftime('%B %-d, %Y')}. "
                f"Stockholders will vote on {prop}, the ratification of the independent auditor and other matters. "
                f"The board recommends a vote FOR the director nominees. "
                f"Total compensation reported for {ex} rose compared with the prior fiscal year, mostly in stock awards.")
    else:  # 10-Q without story
        title = f"10-Q for the quarter ended {ctx['qend']}"
        summary = (f"{c['short']} filed its quarterly report for the period ended {ctx['qend']}; "
                   f"{c['metric']} and updated risk factors were the main changes.")
        says = (f"Quarterly report on Form 10-Q for the quarterly period ended {ctx['qend']}. "
                f"Revenue and {c['metric']} are discussed in Management's Discussion and Analysis. "
                f"The Company repurchased shares during the quarter under its existing authorisation. "
                f"Legal proceedings and risk factors were updated, with no material new litigation.")
    return title, summary, says


HEAD_VALUES = {}  # (story slug, head index) -> fixed numbers, so every report of one event agrees
NOT_FOR_FILINGS = ("nalyst", "say", "Shares", "hort seller", "demand softer", "leaves for", "departs", "memo", "valuable",
                   "lead times", "yields", "app opens", "Call of Duty", "top", "regulators")
CLAIMS = {}  # accession -> (source phrase, claim), used by the journals


def poster(handle, t):
    people = {"tim_cook": "Tim Cook", "gregjoz": "Greg Joswiak", "satyanadella": "Satya Nadella", "BradSmi": "Brad Smith",
              "ssankar": "Shyam Sankar", "LisaSu": "Lisa Su"}
    return people.get(handle, C[t]["short"])


COMMON_FIRST = {"Sovereign", "Automotive", "Regulatory-credit", "Tariffs", "Revamped", "Semiconductor", "Capital",
                "Court", "Services", "Total", "First", "Analysts", "Client", "Licences", "Export", "Shares"}


def lc_title(title):
    first = title.split()[0]
    return title[0].lower() + title[1:] if first in COMMON_FIRST else title


def filing_heads(story):
    return [i for i, h in enumerate(story[2]) if not any(w in h[0] + h[1] for w in NOT_FOR_FILINGS)]


def make_entry(t, d, kind, story, head_ix):
    c = C[t]
    ctx = ctx_for(t, d)
    if story:
        heads = story[2]
        if kind == "filing":
            ok = filing_heads(story)
            if head_ix not in ok:
                head_ix = min(ok, key=lambda i: abs(i - head_ix))
        item = heads[head_ix]
        key = (story[0], head_ix)
        if key not in HEAD_VALUES:
            fixed = {k: ctx[k] for k in ("n", "m", "x", "partner", "customer", "country", "city", "region", "exec", "analyst_firm")}
            if len(item) > 2:
                fixed.update({k: R.choice(v) for k, v in item[2].items()})
            HEAD_VALUES[key] = fixed
        ctx.update(HEAD_VALUES[key])
    else:
        item = R.choice(GENERIC if kind != "post" else GENERIC[3:5])
    if kind == "filing":
        form = R.choice(["8-K", "10-Q"]) if story else R.choices(list(FILING_FORMS), list(FILING_FORMS.values()))[0]
        title, summary, says = make_filing(t, d, ctx, item if story else None, form)
        acc = f"{c['cik']:010d}{d.strftime('%y')}{R.randint(1, 999999):06d}"
        src = {"name": "SEC EDGAR", "url": f"https://www.sec.gov/Archives/edgar/data/{c['cik']}/{acc}.htm", "says": says}
        claim = fill(item[1], ctx) if story else summary.split(". ")[0].rstrip(".")
        article = "an" if form[0] in "8S" else "a"
        return title, summary, src, (f"{article} {form} filing showed that" if story else "", claim)
    title = fill(item[0], ctx)
    base_title = title
    claim = fill(item[1], ctx)
    if kind == "news":
        outlet = R.choices(OUTLETS, OUTLET_W)[0]
        if story:
            title += R.choice(["", "", "", ", sources say", ", report says", f" - {outlet}"]).replace(" - ", " \u2014 ")
        verb = R.choice(["reports", "reported", "says", "writes"])
        summary = f"{outlet} {verb} that {claim}. " + fill(R.choice(NEWS_SUMMARY_2), ctx)
        more = R.sample(NEWS_SAYS, R.randint(2, 4))
        says = " ".join([cap(claim) + ", according to " + ctx["people"] + "."] + [fill(s, ctx) for s in more])
        return title, summary, {"name": outlet, "url": news_url(outlet, base_title, d), "says": says}, (f"{outlet} reported that", claim)
    handle = R.choice(c["handles"])
    who = poster(handle, t)
    if story:
        title = R.choice([f"{who} says {lc_title(title)}", title, f"On X: {title}"])
    dt = at(d, R.randint(12, 23), R.randint(0, 59), R.randint(0, 59))
    summary = f"@{handle} posted that {claim}. " + R.choice(
        ["The post gave no further detail.", "No figures beyond the post were given.",
         "The company later linked to a press release.", "It drew wide attention from investors.",
         fill("{short} has not filed anything on the matter.", ctx)])
    ctx2 = dict(ctx, claim=claim, claim_cap=cap(claim))
    says = " ".join([fill(R.choice(POST_SAYS_OPEN), ctx2)] + R.sample(POST_SAYS_MORE, R.randint(2, 4)))
    return (title, summary, {"name": f"@{handle} on X", "url": f"https://x.com/{handle}/status/{x_status_id(dt)}", "says": says},
            (f"{who} posted on X that" if who != c["short"] else "the company said on X that", claim))


entries = []
for t in TICKERS:
    c = C[t]
    n = c["entries"]
    per_day = {}
    # every ticker has something on each finished sitting's day
    for sid in (38, 39, 40, 41):
        per_day[SITTING_DAYS[sid]] = R.randint(1, 2)
    while sum(per_day.values()) < n:
        d = R.choice(DAYS)
        if per_day.get(d, 0) < 3:
            per_day[d] = per_day.get(d, 0) + 1
    # plan first: kind and story of every entry, so each story can move through its events in order
    plan = []
    for d in sorted(per_day):
        for k in range(1, per_day[d] + 1):
            kind = R.choices(KINDS, KIND_W)[0]
            story = R.choice(c["stories"]) if R.random() < 0.8 else None
            if kind == "filing" and story and not filing_heads(story):
                kind = "news"
            plan.append((d, k, kind, story))
    totals = {}
    for p in plan:
        if p[3]:
            totals[p[3][0]] = totals.get(p[3][0], 0) + 1
    story_seq = {s[0]: 0 for s in c["stories"]}
    for d, k, kind, story in plan:
        seq = head_ix = None
        if story:
            story_seq[story[0]] += 1
            seq = story_seq[story[0]]
            head_ix = min(len(story[2]) - 1, (seq - 1) * len(story[2]) // totals[story[0]])
        title, summary, src, claim = make_entry(t, d, kind, story, head_ix)
        sid = sitting_for(d)
        s = SITTING_BY_ID[sid]
        if d == SITTING_DAYS[sid] and s["finished_at"]:
            st = datetime.fromisoformat(s["started_at"].replace("Z", "+00:00"))
            fi = datetime.fromisoformat(s["finished_at"].replace("Z", "+00:00"))
            filed = st + timedelta(seconds=R.randint(120, int((fi - st).total_seconds()) - 60))
        else:
            filed = at(d, R.randint(6, 19), R.randint(0, 59), R.randint(0, 59))
        eid = f"{PREFIX}-{t}-{d.strftime('%y%m%d')}-{k:02d}"
        CLAIMS[eid] = claim
        entries.append({
            "id": eid,
            "ticker": t,
            "date_of_record": d.isoformat(),
            "kind": kind,
            "title": title,
            "summary": summary,
            "source": src,
            "verified": R.random() < 0.7,
            "merged": R.random() < 0.15,
            "story": story[0] if story else None,
            "story_seq": seq,
            "sitting": sid,
            "filed_at": z(filed),
        })
entries.sort(key=lambda e: (e["date_of_record"], e["ticker"], e["id"]))

# ---------------------------------------------------------------------------------------------
# Journals
# ---------------------------------------------------------------------------------------------

JOURNALS = {
    "NVDA": [
        ("The Blackwell bottleneck", "nvda-blackwell-ramp", "2026-11-19T08:30:00Z",
         "Demand for Blackwell is not the question. Packaging, power and rack integration are, and the archive shows each of them "
         "setting the pace of NVIDIA's shipments more than any customer order book does.",
         ["Demand is not the constraint", "Where the racks get stuck", "What the numbers already say", "What to watch next"]),
        ("Sovereign AI's second act", "nvda-sovereign-ai", "2026-11-12T14:00:00Z",
         "Governments have become NVIDIA's newest large customers. The deals are real, but they arrive lumpy, politically exposed "
         "and tied to export policy that can change in a single afternoon.",
         ["From announcements to purchase orders", "The export-policy overhang", "How much it could be worth"]),
    ],
    "TSLA": [
        ("Robotaxi's long road to scale", "tsla-robotaxi-rollout", "2026-11-20T07:55:00Z",
         "Tesla's robotaxi service is growing city by city, but the filings and the posts tell different stories about how "
         "fast it can scale without safety monitors, and regulators are now asking for the data.",
         ["City by city", "The safety-monitor question", "Regulators start asking", "What the market is pricing"]),
        ("Margins under pressure", "tsla-margin-squeeze", "2026-11-06T13:15:00Z",
         "Price cuts, tariffs and vanishing regulatory credits are squeezing Tesla's car business at the same time. The energy "
         "division helps, but not enough to hide the pressure on automotive margins.",
         ["Three squeezes at once", "The credits cliff", "Can storage fill the gap"]),
    ],
    "AAPL": [
        ("Services carry the quarter", "aapl-services-growth", "2026-11-10T10:00:00Z",
         "Apple's services business keeps setting records while hardware waits on the iPhone cycle. The risk is that its most "
         "profitable revenue is also the most exposed to courts and regulators on two continents.",
         ["Another record", "The regulatory ledger", "What it means for the multiple"]),
        ("The Siri reset", "aapl-apple-intelligence", "2026-11-17T15:30:00Z",
         "Apple has pushed its rebuilt Siri to the spring and is weighing outside models to power it. The archive shows a "
         "company buying time while its AI team thins out and rivals keep shipping.",
         ["A delay, again", "Build, buy or borrow", "People leaving", "Why it matters for upgrades"]),
    ],
    "MSFT": [
        ("Azure's capacity crunch", "msft-azure-capacity", "2026-11-18T08:15:00Z",
         "Microsoft says Azure would have grown faster with more capacity. The spending to fix that is now counted in tens of "
         "billions a quarter, and it is starting to show up in neocloud contracts and depreciation.",
         ["Growth left on the table", "Buying capacity from others", "The capex bill", "What to watch"]),
        ("Copilot's pricing test", "msft-copilot-adoption", "2026-11-08T09:00:00Z",
         "Copilot seat counts are finally large enough to matter. The next test is whether customers keep paying as Microsoft "
         "bundles the assistant into plans and raises prices across its consumer and commercial lines.",
         ["Seats, at last", "Bundling as a strategy", "The pricing risk"]),
    ],
    "PLTR": [
        ("Bootcamps as a sales machine", "pltr-aip-bootcamps", "2026-11-16T16:00:00Z",
         "Palantir's five-day AIP bootcamps have turned into the fastest sales motion in enterprise software. The archive "
         "traces how they convert, what the deal sizes look like and where the model could stall.",
         ["From demo to contract in a week", "Deal sizes keep climbing", "Where it could stall"]),
        ("The valuation question", "pltr-valuation-debate", "2026-11-21T08:45:00Z",
         "Palantir trades at a multiple no other large company comes close to. Bulls point to growth and government contracts, "
         "bears to the price. Here is what the filings and the news actually support.",
         ["A multiple without peers", "What the bulls can point to", "What the bears can point to", "Where that leaves the stock"]),
    ],
    "AMD": [
        ("MI350 and the second-source trade", "amd-mi350-launch", "2026-11-14T10:30:00Z",
         "Every large AI buyer wants a second supplier. AMD's MI350 is the first Instinct part that looks competitive enough "
         "to be that supplier at scale, and the customer list is starting to prove it.",
         ["Why buyers want a second source", "What MI350 changes", "Software is still the gap", "The revenue math"]),
        ("Can EPYC keep taking share", "amd-epyc-share-gains", "2026-11-03T14:20:00Z",
         "AMD's server CPUs have taken share from Intel for six years running. With Venice on 2nm sampling and cloud providers "
         "standardising on EPYC, the question is how much share is left to take.",
         ["Six years of gains", "Venice and the process lead", "How much is left"]),
    ],
}

ANALYSIS = [
    "That matters because investors have spent most of the year debating whether {metric} can keep growing at this pace.",
    "Taken together, the entries point in one direction, even if the timing remains uncertain.",
    "None of this is visible in the headline numbers yet, but it tends to show up a quarter or two later.",
    "The company has not disputed any of these figures, and several were later repeated on the earnings call.",
    "It is worth separating what the company said from what suppliers and customers said, because the two do not always agree.",
    "The sell side has mostly treated this as noise; the archive suggests it deserves more attention.",
    "The pattern is familiar from earlier cycles: announcements first, revenue later, and margins last.",
    "For now the simplest reading is that demand is ahead of supply, and the constraint is operational rather than commercial.",
    "There is a risk of reading too much into a single quarter, and the entries below should be weighed accordingly.",
    "The market's reaction was muted, which suggests much of this was already expected.",
    "Management has been consistent on this point for several quarters, and the record backs that up.",
    "What is missing is an independent measure of adoption, which is why the filings matter more than the posts here.",
    "If that holds, consensus estimates for the next two quarters look conservative.",
    "If it does not, the stock has little room for disappointment at the current valuation.",
    "The second-order effects, on suppliers and on competitors, are where the surprises usually come from.",
    "Competitors have noticed, and their own announcements over the same weeks are a useful cross-check.",
    "The timing is the least certain part of the picture, and the archive is honest about that.",
    "It is also a reminder that the company's guidance tends to be conservative on exactly this point.",
    "Customers, not the company, were the first to say so publicly.",
    "A single data point would be easy to dismiss; several in a row are harder to ignore.",
    "The numbers are large, but so are the expectations already built into the share price.",
    "Nothing in the filings contradicts this, which is not the same as the filings confirming it.",
    "Policy remains the wild card, and it can move faster than any product cycle.",
    "The obvious objection is that this has been true for a while, and the stock has already moved.",
    "What changed this autumn is the breadth of the evidence, not its direction.",
    "Suppliers tend to see these shifts first, which is why their comments deserve weight.",
    "On the earnings call, management chose its words carefully on this subject.",
    "The cost side of the ledger gets less attention than it should.",
    "It would take a clear reversal in the next quarter to change this reading.",
    "A more cautious reading is possible, and some analysts hold it.",
]
LEADS = ["The archive records that", "According to the record,", "A filing shows that", "One entry notes that",
         "Reporting in the archive says", "The clearest data point:", "Earlier in the autumn,", "By the company's own account,"]


def words(s):
    return len(s.split())


STORY_TITLE = {s["slug"]: s["title"] for s in stories}


def follow_up(e):
    out = []
    if e["verified"]:
        out.append(R.choice(["The entry is marked verified in the archive.", "A second source confirmed it at the time.",
                             "It was verified against a second source before it was filed."]))
    else:
        out.append(R.choice(["It has not been independently verified, so it is treated here as reported rather than confirmed.",
                             "The archive still lists it as unverified, which is worth keeping in mind."]))
    if e["story"]:
        out.append(f"It is entry #{e['story_seq']} in the archive's \"{STORY_TITLE[e['story']]}\" story.")
    return out


def make_body(t, cited, headings, dek):
    c = C[t]
    ctx = ctx_for(t, LAST_DAY)
    groups = [[] for _ in headings]
    for i, e in enumerate(cited):
        groups[i * len(headings) // len(cited)].append(e)
    analysis = R.sample(ANALYSIS, len(ANALYSIS))
    ai = 0
    sections = []
    for h, grp in zip(headings, groups):
        paras = []
        for e in grp:
            src, claim = CLAIMS[e["id"]]
            when = date.fromisoformat(e["date_of_record"]).strftime("On %B %-d")
            sent1 = f"{when}, {src + ' ' if src else ''}{claim} [{e['id']}]."
            extra = follow_up(e)
            for _ in range(1):
                extra.append(fill(analysis[ai % len(analysis)], ctx))
                ai += 1
            paras.append(" ".join([sent1] + extra))
        paras.append(" ".join(fill(analysis[(ai + k) % len(analysis)], ctx) for k in range(3)))
        ai += 3
        if not sections:
            paras.insert(0, dek)
        sections.append((h, paras))
    body = lambda: "".join(f"## {h}\n\n" + "\n\n".join(p) + "\n\n" for h, p in sections).rstrip() + "\n"
    # pad to at least ~560 words with more analysis, then trim to at most 1000
    k = 0
    while words(body()) < 560:
        h, p = sections[k % len(sections)]
        p.append(" ".join(fill(analysis[(ai + j) % len(analysis)], ctx) for j in range(3)) + " " +
                 f"{c['short']}'s next earnings report should show whether the trend is holding.")
        ai += 3
        k += 1
    while words(body()) > 1000:
        for h, p in sections:
            if len(p) > 1 and words(body()) > 1000:
                p.pop()
    return body()


journals = []
by_ticker = {t: [e for e in entries if e["ticker"] == t] for t in TICKERS}
for t in TICKERS:
    for title, story_slug, pub, dek, headings in JOURNALS[t]:
        pub_dt = datetime.fromisoformat(pub.replace("Z", "+00:00"))
        before = [e for e in by_ticker[t] if date.fromisoformat(e["date_of_record"]) < pub_dt.date()]
        in_story = [e for e in before if e["story"] == story_slug]
        others = [e for e in before if e["story"] != story_slug]
        want = R.randint(4, 8)
        distinct = {}
        for e in in_story:  # one citation per event, preferring verified reports
            key = CLAIMS[e["id"]][1]
            if key not in distinct or (e["verified"] and not distinct[key]["verified"]):
                distinct[key] = e
        cited = sorted(distinct.values(), key=lambda e: e["date_of_record"])[-(want - 1):]
        seen_claims = {CLAIMS[e["id"]][1] for e in cited}
        pool = [e for e in others if CLAIMS[e["id"]][1] not in seen_claims]
        while len(cited) < want:
            e = R.choice(pool)
            pool = [x for x in pool if CLAIMS[x["id"]][1] != CLAIMS[e["id"]][1]]
            cited.append(e)
        cited.sort(key=lambda e: (e["date_of_record"], e["id"]))
        body = make_body(t, cited, headings, dek)
        audited = pub_dt - timedelta(minutes=R.randint(60, 180))
        n_issues = R.choice([0, 0, 1, 1, 2, 3])
        issue_pool = [
            ("minor", "recency", f"The most recent cited entry is {cited[-1]['id']}; a newer source could strengthen the closing section."),
            ("minor", "citation", f"The claim in the second section leans on a single entry ({cited[0]['id']}); consider a second citation."),
            ("minor", "claims", "One figure is rounded more aggressively than the cited source supports."),
            ("major", "sourcing", "A central claim rests on an unverified report; the text now flags it as reported, not confirmed."),
            ("minor", "sourcing", "One cited entry is an X post; the audit prefers a filing or news report for the same fact."),
            ("major", "claims", "An earlier draft overstated the revenue impact; the published text was corrected before approval."),
        ]
        issues = [{"severity": s, "check": ch, "detail": dt} for s, ch, dt in R.sample(issue_pool, n_issues)]
        score = R.randint(88, 97) - sum(5 if i["severity"] == "major" else 1 for i in issues)
        score = max(78, score)
        journals.append({
            "slug": url_slug(f"{t} {title}", 120),
            "ticker": t,
            "title": title,
            "dek": dek,
            "body": body,
            "price": R.choice(["0.10", "0.25", "0.50", "1.00", "1.50", "2.00"]),
            "author_name": "Swarm desk",
            "published_at": pub,
            "stock_token_price_at_publication": round(C[t]["price"] * R.uniform(0.95, 1.05), 2),
            "audit": {
                "verdict": "approve",
                "score": score,
                "summary": R.choice([
                    f"All {len(cited)} citations resolve and support the claims they are attached to.",
                    f"Claims match the {len(cited)} cited entries; tone is measured and the conclusion is hedged appropriately.",
                    f"Sourcing is adequate across {len(cited)} entries; minor wording changes were applied before approval.",
                    f"The argument follows from the cited record; {len(issues)} issue(s) noted, none blocking.",
                ]),
                "issues": issues,
                "engine": "swarm-audit-1",
                "audited_at": z(audited),
            },
        })

# ---------------------------------------------------------------------------------------------
# Sitting logs
# ---------------------------------------------------------------------------------------------

for s in sittings:
    if s["finished_at"] is None:
        continue
    st = datetime.fromisoformat(s["started_at"].replace("Z", "+00:00"))
    fi = datetime.fromisoformat(s["finished_at"].replace("Z", "+00:00"))
    todays = sorted((e for e in entries if e["date_of_record"] == s["date"]), key=lambda e: e["filed_at"])
    jr = [j for j in journals if j["published_at"][:10] == s["date"]]
    acc_n = R.randint(9, 16)
    nvda_px = C["NVDA"]["price"] * R.uniform(0.97, 1.03)
    tsla_px = C["TSLA"]["price"] * R.uniform(0.97, 1.03)
    # the sitting runs in phases; each phase keeps its own order, extras are mixed into their phase
    opening = [
        ("SOC", "info", f"SOC: sitting {s['id']} opened; watching {acc_n} X accounts across {len(TICKERS)} tickers"),
        ("TOKEN", "info", f"TOKEN: price feed NVDAx {nvda_px:.2f}, TSLAx {tsla_px:.2f}"),
    ]
    gather = [
        ("SOC", "info", f"SOC: {s['leads'] // 2 + R.randint(-4, 4)} leads from {acc_n} accounts"),
        ("NWS", "info", f"NWS: {R.randint(8, 25)} candidate stories from {R.randint(4, 6)} outlets"),
        ("FIL", "info", f"FIL: EDGAR full-text search returned {R.randint(5, 18)} filings for {', '.join(TICKERS)}"),
    ]
    leads, check, story_l, arc = [], [("SRC", "info", f"SRC: checking {R.randint(10, 30)} leads for a second source")], [], []
    for e in todays:
        desk = {"post": "SOC", "news": "NWS", "filing": "FIL"}[e["kind"]]
        short = e["title"] if len(e["title"]) <= 64 else e["title"][:61].rstrip() + "..."
        leads.append((desk, "info", f"{desk}: lead '{short}' from {e['source']['name']}"))
        if e["merged"]:
            check.append(("SRC", "info", f"SRC: second source found for {e['id']}, merging"))
        elif not e["verified"]:
            check.append(("SRC", "warn", f"SRC: no second source for {e['id']} yet; filing as unverified"))
        else:
            check.append(("SRC", "info", f"SRC: {e['id']} confirmed by {R.choice(['the filing', 'a second outlet', 'the company newsroom', 'two sources'])}"))
        if e["story"]:
            story_l.append(("STY", "info", f"STY: {e['id']} joins {e['story']} as #{e['story_seq']}"))
        else:
            story_l.append(("STY", "info", f"STY: {e['id']} fits no open story; kept standalone"))
        arc.append(("ARC", "info", f"ARC: filed {e['id']}"))
    extras = {
        "gather": [("SOC", "warn", f"SOC: rate limited on @{R.choice(C['TSLA']['handles'] + C['NVDA']['handles'])}, backing off {R.choice([30, 60, 90])}s"),
                   ("NWS", "warn", f"NWS: paywall on {R.choice(['ft.com', 'bloomberg.com', 'theinformation.com'])}; using summary only"),
                   ("FIL", "info", f"FIL: Form 4 batch parsed ({R.randint(2, 9)} transactions)"),
                   ("NWS", "info", "NWS: duplicate wire copy ignored"),
                   ("SOC", "info", "SOC: thread expanded, no new lead")],
        "check": [("SRC", "info", "SRC: confidence model refreshed"),
                  ("SRC", "info", "SRC: cross-checking leads against the archive")],
        "story": [("STY", "info", f"STY: {R.choice(stories)['slug']} has no new entries today"),
                  ("STY", "info", "STY: no new story opened")],
        "arc": [("ARC", "info", f"ARC: {R.randint(1, 3)} duplicate accession candidates skipped"),
                ("ARC", "info", "ARC: index refreshed")],
        "jrn": [("JRN", "info", f"JRN: outline drafted for {R.choice(stories)['title']}; waiting for more entries"),
                ("JRN", "warn", f"JRN: draft '{R.choice(['Capex without end', 'The second-source trade', 'Where the racks get stuck', 'A quieter quarter'])}' held: audit score {R.randint(55, 74)} below threshold")],
        "token": [("TOKEN", "info", f"TOKEN: buyback swap {R.uniform(0.2, 0.9):.2f} WETH \u2192 {R.randint(8000, 30000):,} DOVE"),
                  ("TOKEN", "info", f"TOKEN: {R.randint(3, 40)} journal purchases settled, {R.uniform(2, 40):.2f} USDG")],
    }
    errors = {
        "gather": [("FIL", "error", "FIL: EDGAR returned 503 for the index request; retried after 20s"),
                   ("NWS", "error", "NWS: fetch timed out for reuters.com after 3 attempts"),
                   ("SOC", "error", "SOC: X API returned 429 for the search endpoint; skipped one query")],
        "jrn": [("JRN", "error", "JRN: audit engine timed out on a draft; requeued")],
        "token": [("TOKEN", "error", "TOKEN: swap reverted (slippage above 1%); will retry next sitting")],
    }
    jrn = []
    for j in jr:
        jrn.append(("JRN", "info", f"JRN: draft '{j['title']}' passed audit ({j['audit']['score']})", j))
        jrn.append(("JRN", "info", f"JRN: scheduled {j['slug']} for {j['published_at'][11:16]}Z at {j['price']} USDG"))
    phases = {"gather": gather + leads, "check": check, "story": story_l, "arc": arc, "jrn": jrn, "token": []}
    for ph in extras:
        phases[ph] += R.sample(extras[ph], R.randint(1, len(extras[ph])))
    err_phases = R.sample(list(errors), R.randint(1, 2))
    for ph in err_phases:
        phases[ph].append(R.choice(errors[ph]))
    for ph in ("gather", "check", "story"):  # mixed, but lead lines stay before what follows from them
        head = phases[ph][:1] if ph != "gather" else phases[ph][:3]
        rest = phases[ph][len(head):]
        R.shuffle(rest)
        phases[ph] = head + rest
    closing = [("ARC", "info", f"ARC: sitting {s['id']} closed: {s['leads']} leads, {s['filed']} filed, ${s['spend_usd']:.2f} spent")]
    order = ["gather", "check", "story", "arc", "jrn", "token"]
    count = lambda: len(opening) + sum(len(phases[p]) for p in order) + len(closing)
    cap_lines = R.randint(36, 50)
    while count() > cap_lines:  # drop plain lead lines first, never errors or filings
        for ph in ("gather", "story", "check"):
            cand = [i for i, l in enumerate(phases[ph]) if l[1] == "info" and i >= 3]
            if cand and count() > cap_lines:
                phases[ph].pop(R.choice(cand))
    pads = [("SRC", "info", "SRC: cross-checking lead against the archive"), ("SOC", "info", "SOC: thread expanded, no new lead"),
            ("NWS", "info", "NWS: duplicate wire copy ignored"), ("FIL", "info", "FIL: no new 8-K since the last sitting"),
            ("SOC", "info", "SOC: quote post ignored (no new facts)"), ("NWS", "info", "NWS: syndicated copy matched to an earlier lead")]
    while count() < 30:
        phases["gather"].insert(R.randint(3, len(phases["gather"])), R.choice(pads))
    allines = opening + [l for ph in order for l in phases[ph]] + closing
    span = int((fi - st).total_seconds())
    stamps = sorted(R.sample(range(2, span - 1), len(allines) - 1)) + [span]
    s["log"] = []
    for sec, line in zip(stamps, allines):
        tsv = z(st + timedelta(seconds=sec))
        if len(line) == 4:  # the audit of a journal happened at this line
            line[3]["audit"]["audited_at"] = tsv
        s["log"].append({"ts": tsv, "desk": line[0], "level": line[1], "message": line[2]})

# ---------------------------------------------------------------------------------------------
# Write
# ---------------------------------------------------------------------------------------------

archive = {"companies": companies, "stories": stories, "sittings": sittings, "entries": entries, "journals": journals}
with open(OUT, "w", encoding="utf-8") as f:
    json.dump(archive, f, indent=1, ensure_ascii=False)
    f.write("\n")

# ---------------------------------------------------------------------------------------------
# Self-check (the rules of docs/import-format.md, plus the demo's own targets)
# ---------------------------------------------------------------------------------------------

with open(OUT, encoding="utf-8") as f:
    a = json.load(f)

SLUG = re.compile(r"^(?=.*[a-z])[a-z0-9]+(-[a-z0-9]+)*$")
ACC = re.compile(r"^([A-Z]{2,6})-([A-Z0-9]{1,10})-(\d{6})-(\d{2})$")
CITE = re.compile(r"\[([^\]]*)\]")
RFC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
PRICE = re.compile(r"^\d+(\.\d{1,6})?$")


def ts(s):
    assert RFC.match(s), s
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


assert set(a) == {"companies", "stories", "sittings", "entries", "journals"}
tick = {c["ticker"] for c in a["companies"]}
assert all(set(c) == {"ticker", "name"} and re.match(r"^[A-Z0-9]{1,10}$", c["ticker"]) and c["name"] for c in a["companies"])
story_t = {}
for s in a["stories"]:
    assert set(s) == {"slug", "ticker", "title"} and SLUG.match(s["slug"]) and s["ticker"] in tick and s["title"], s
    assert s["slug"] not in story_t
    story_t[s["slug"]] = s["ticker"]
sit_ids = set()
for s in a["sittings"]:
    assert set(s) == {"id", "date", "started_at", "finished_at", "note", "leads", "filed", "spend_usd", "log"}, s
    assert s["id"] not in sit_ids
    sit_ids.add(s["id"])
    date.fromisoformat(s["date"])
    st = ts(s["started_at"])
    if s["finished_at"] is None:
        assert s["log"] == []
        continue
    fi = ts(s["finished_at"])
    assert 30 * 60 <= (fi - st).total_seconds() <= 51 * 60
    assert 30 <= s["leads"] <= 70 and 10 <= s["filed"] <= 25 and s["spend_usd"] == round(s["spend_usd"], 2) >= 0
    assert 30 <= len(s["log"]) <= 50, len(s["log"])
    prev = st
    for l in s["log"]:
        assert set(l) == {"ts", "desk", "level", "message"} and l["message"]
        assert l["desk"] in {"SOC", "NWS", "FIL", "SRC", "STY", "ARC", "JRN", "TOKEN"} and l["level"] in {"info", "warn", "error"}
        t_ = ts(l["ts"])
        assert prev <= t_ <= fi
        prev = t_
    assert {l["desk"] for l in s["log"]} == {"SOC", "NWS", "FIL", "SRC", "STY", "ARC", "JRN", "TOKEN"}, s["id"]
    assert any(l["level"] == "error" for l in s["log"]) and any(l["level"] == "warn" for l in s["log"])

ids = {}
last_seq = {}
ENTRY_KEYS = {"id", "ticker", "date_of_record", "kind", "title", "summary", "source", "verified", "merged", "story",
              "story_seq", "sitting", "filed_at"}
for e in a["entries"]:
    assert set(e) == ENTRY_KEYS, e["id"]
    m = ACC.match(e["id"])
    assert m and m.group(2) == e["ticker"] and m.group(3) == date.fromisoformat(e["date_of_record"]).strftime("%y%m%d"), e["id"]
    assert int(m.group(4)) >= 1 and e["ticker"] in tick and e["kind"] in {"post", "news", "filing"}
    assert FIRST_DAY.isoformat() <= e["date_of_record"] <= LAST_DAY.isoformat()
    assert e["title"].strip() and e["summary"].strip()
    assert set(e["source"]) == {"name", "url", "says"} and e["source"]["name"].strip() and e["source"]["says"].strip()
    assert e["source"]["url"].startswith("https://"), e["source"]["url"]
    assert "{" not in e["title"] + e["summary"] + e["source"]["says"], e["id"]
    assert isinstance(e["verified"], bool) and isinstance(e["merged"], bool)
    if e["story"] is not None:
        assert story_t[e["story"]] == e["ticker"] and e["story_seq"] >= 1
        assert e["story_seq"] == last_seq.get(e["story"], 0) + 1, e["id"]  # file is sorted by date
        last_seq[e["story"]] = e["story_seq"]
    else:
        assert e["story_seq"] is None
    assert e["sitting"] in sit_ids
    assert ts(e["filed_at"]).date().isoformat() == e["date_of_record"]
    assert e["id"] not in ids
    ids[e["id"]] = e
per_t = {t: sum(1 for e in a["entries"] if e["ticker"] == t) for t in tick}
assert all(55 <= n <= 70 for t, n in per_t.items() if t != "NVDA") and per_t["NVDA"] > 80, per_t
assert len(a["entries"]) >= 360
per_day = {}
for e in a["entries"]:
    per_day[(e["ticker"], e["date_of_record"])] = per_day.get((e["ticker"], e["date_of_record"]), 0) + 1
assert max(per_day.values()) <= 3
for (t, d), n in per_day.items():
    for k in range(1, n + 1):
        assert f"JM-{t}-{date.fromisoformat(d).strftime('%y%m%d')}-{k:02d}" in ids
in_story = sum(1 for e in a["entries"] if e["story"]) / len(a["entries"])
assert 0.7 <= in_story <= 0.9, in_story

J_KEYS = {"slug", "ticker", "title", "dek", "body", "price", "author_name", "published_at", "stock_token_price_at_publication", "audit"}
jslugs = set()
for j in a["journals"]:
    assert set(j) == J_KEYS and SLUG.match(j["slug"]) and j["slug"] not in jslugs and j["ticker"] in tick and j["title"]
    jslugs.add(j["slug"])
    assert 150 <= len(j["dek"]) <= 300, (j["slug"], len(j["dek"]))
    secs = [l for l in j["body"].splitlines() if l.startswith("## ")]
    assert 3 <= len(secs) <= 5
    assert 500 <= words(j["body"]) <= 1000, (j["slug"], words(j["body"]))
    cites = []
    for inner in CITE.findall(j["body"]):
        for part in re.split(r"[,;]", inner):
            if ACC.match(part.strip()) and part.strip() not in cites:
                cites.append(part.strip())
    assert 4 <= len(cites) <= 8 and all(c in ids and ids[c]["ticker"] == j["ticker"] for c in cites), (j["slug"], cites)
    pub = ts(j["published_at"])
    assert "2026-11-01" <= j["published_at"][:10] <= "2026-11-21"
    assert all(ids[c]["date_of_record"] < j["published_at"][:10] for c in cites)
    assert PRICE.match(j["price"]) and float(j["price"]) > 0 and j["author_name"] == "Swarm desk"
    assert j["stock_token_price_at_publication"] > 0
    au = j["audit"]
    assert set(au) == {"verdict", "score", "summary", "issues", "engine", "audited_at"} and au["verdict"] == "approve"
    assert 78 <= au["score"] <= 97 and au["summary"] and au["engine"] == "swarm-audit-1"
    assert 3600 <= (pub - ts(au["audited_at"])).total_seconds() <= 3 * 3600
    assert len(au["issues"]) <= 3
    for i in au["issues"]:
        assert set(i) == {"severity", "check", "detail"} and i["severity"] in {"minor", "major"}
        assert i["check"] in {"citation", "recency", "claims", "sourcing"} and i["detail"]
assert len(a["journals"]) >= 12 and all(sum(1 for j in a["journals"] if j["ticker"] == t) == 2 for t in tick)

size = os.path.getsize(OUT)
assert size < 2 * 1024 * 1024, size
kinds = {k: sum(1 for e in a["entries"] if e["kind"] == k) for k in ("news", "post", "filing")}
print(f"archive.json: {len(a['companies'])} companies, {len(a['stories'])} stories, {len(a['sittings'])} sittings, "
      f"{len(a['entries'])} entries (NVDA {per_t['NVDA']}; news {kinds['news']}, post {kinds['post']}, filing {kinds['filing']}; "
      f"verified {sum(e['verified'] for e in a['entries'])}, merged {sum(e['merged'] for e in a['entries'])}, in story {in_story:.0%}), "
      f"{len(a['journals'])} journals, {size:,} bytes")
