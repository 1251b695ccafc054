"""Phrase bank 'delegator'. The voice: a busy manager/organiser who runs work and home life through other
people - status-update fragments, passive constructions, PM acronyms (ETA, FYI, EOW, PO), to-dos taken on by
delegating or owning them indirectly, and to-dos reported closed by stating the resulting state. Written only
from truth-bench's README and the dev bank's structure; no names, topics or sentences shared with other banks.
Placeholders: {v}/{old} slot values, {topic}, thread entities, {me} the user, {n}/{n2}/{big}/{few} fresh
numbers, {day}, {due}, {stranger}/{org} (one-off requests only). No digits in fixed text; a value never touches
a slash, dash, colon, full stop or letter."""

NAME = "delegator"

USERS = ["Agnieszka Thornbury", "Rutger Amankwah", "Solveig Paterno", "Obinna Westergaard", "Clementine Abiodun",
         "Lorcan Idowu", "Ingeborg Mallory", "Tancredi Osei", "Beatriz Hallworth", "Dmitri Achterhof",
         "Yolanda Brannigan", "Casper Nwosu", "Vesna Carruthers", "Alphonse Mukherjee", "Ottoline Barraclough",
         "Kwabena Strand"]

PEOPLE = ["Ragnvald", "Leontyne", "Bjarni", "Cosima", "Dervla", "Maximin", "Anselma", "Oriane", "Hallvard",
          "Iolanthe", "Jarl", "Kunle", "Ludmila", "Marit", "Nuno", "Odalys", "Pavlina", "Quinlan", "Caedmon",
          "Wulfric", "Hephzibah", "Ugne", "Valdis", "Wenonah", "Ximena", "Yevgenia", "Zbigniew", "Bohdan",
          "Casimira", "Gwilym", "Eilidh", "Fridtjof", "Gunnhild", "Hortensia", "Iskander", "Jolanta", "Kerensa",
          "Melisande", "Nevenka", "Olwen"]
STRANGERS = ["Mrs. Pettigrew", "Dr. Iwuchukwu", "Lysander Cobb", "Marguerite Fenn", "Cedric Abernathy",
             "Ms. Valderrama", "Rupert Fairclough", "Dr. Szymanska", "Imelda Crouch", "Bartholomew Kent",
             "Winifred Osgood", "Mr. Quarrington"]
ORGS = ["Fenwick Mutual", "Tollgate Energy", "Marrowby Building Society", "Quayside Veterinary", "Larchmont Water",
        "Brackenridge Council", "Silverbirch Pensions", "Ormond Telecom", "Heathcote Parking"]

# --- thread pools ------------------------------------------------------------------------------------------
SHOWS = ["Packworld Expo", "FreightTech Live", "Coldchain Europe", "Warehouse Live", "Palletcon"]
STAND_BUILDERS = ["Plinth & Panel", "Boothcraft", "Exhibitrix", "Modulo Stands", "Shellscheme Studio"]
HOTELS = ["Hotel Caravelle", "Drummond Arms Hotel", "Novotel Riverside East", "Hotel Albatros", "Ferrier Inn"]
VENDORS = ["Tallyhaus", "Syncrow", "Rosterly", "Clearstack", "Papertrail Cloud", "Workgrid"]
ALT_VENDORS = ["Quorumly", "Bookwright", "Stackhand", "Filefold", "Openledger Pro"]
ESTATE_AGENTS = ["Hobson & Vale", "Keyholder Estates", "Larkspur Homes", "Pennington Property",
                 "Threshold Estates", "Maple & Sage"]
SOLICITORS = ["Crabtree Legal", "Ellery & Moss", "Whitcombe Conveyancing", "Farrant Law", "Lowther Solicitors"]
CARE_AGENCIES = ["Kindred Home Care", "Willowmere Carers", "Hearthwood Support Services", "Evenstar Care",
                 "Bridgeholm Homecare"]
LESSORS = ["Axlebridge Leasing", "Marshgate Fleet", "Kerbline Vehicle Finance", "Tollbar Contract Hire",
           "Brightaxle Leasing"]
VAN_MODELS = ["Vivaro Electric", "eExpert", "Proace City", "Scudo", "Berlingo Van", "Transit Connect"]
PITCHES = ["Hollins Rec", "Fairhaven Playing Fields", "Quarry Lane Park", "Beechcroft Academy",
           "Netherfield Sports Ground"]
KIT_SUPPLIERS = ["Touchline Teamwear", "Goalmouth Kits", "Stripe & Stud", "Crossbar Sportswear"]
HOMETOWNS = ["Tampere", "Trondheim", "Bilbao", "Kaunas", "Plovdiv", "Bergamo"]
EMPLOYERS = ["Ironbridge Partners", "Cobalt & Finch", "Marlin Operations Group", "Keel Infrastructure"]
PETS = ["Gherkin", "Nutmeg", "Sprocket", "Admiral"]

PERSONAL_ENTS = dict(partner="PEOPLE", cousin="PEOPLE", city="HOMETOWNS", employer="EMPLOYERS", pet="PETS")

THREADS = [
    dict(
        name="trade show stand", short=["the expo", "the stand", "show prep", "{show}", "the {show} stand"],
        ents=dict(show="SHOWS", standmgr="PEOPLE", designer="PEOPLE", salesdir="PEOPLE"),
        slots=[
            dict(id="stand_area", kind="number", num=(18, 96), fmt=["{} square metres", "{} sqm"], type="decision",
                 topic="our stand size",
                 q=["How big is our stand at {show}?", "What floor space did we take at {show}?"],
                 say=["we've taken {v} of floor at {show}", "the stand footprint is {v}",
                      "organisers allocated us {v}", "{salesdir} signed off on {v} for the stand"]),
            dict(id="show_open", kind="date", type="event", topic="the {show} opening day",
                 q=["When does {show} open?", "What's the first day of {show}?"],
                 say=["doors open at {show} on {v}", "{show} kicks off {v}", "build-up finishes the night before {v}",
                      "first show day is {v}"]),
            dict(id="stand_builder", kind="name", pool="STAND_BUILDERS", type="decision", topic="the stand contractor",
                 q=["Who's building our stand for {show}?", "Which contractor is fabricating the stand?"],
                 say=["{v} won the stand build", "stand fabrication went to {v}", "we've contracted {v} for the build",
                      "{designer} is working with {v} on the stand"]),
            dict(id="team_hotel", kind="place", pool="HOTELS", type="plan", topic="the team hotel",
                 q=["Where is the team staying for {show}?", "Which hotel is the expo crew in?"],
                 say=["the crew is booked into {v}", "rooms are held at {v}", "team's staying at {v}, walkable to the hall"]),
            dict(id="booth_captain", kind="name", pool="PEOPLE", type="relationship", topic="the stand captain",
                 q=["Who's in charge on the stand during the show?", "Who's captaining the stand at {show}?"],
                 say=["{v} is captain on the stand", "on-site the stand answers to {v}",
                      "I've made {v} stand captain, I'll drop in and out"]),
            dict(id="lead_target", kind="number", num=(150, 900), fmt=["{} leads", "{} scans"], type="knowledge",
                 topic="the lead target",
                 q=["How many leads are we aiming for at {show}?", "What's the lead goal for the show?"],
                 say=["sales expects {v} from the show", "target is {v} across all days",
                      "{salesdir} has pencilled {v} into the forecast"]),
        ],
        facts=[("decision", "no giveaways this year, just decent coffee on the stand"),
               ("relationship", "{standmgr} from events is my contact with the organisers"),
               ("relationship", "{designer} is doing the graphics panels, first time we've used them"),
               ("event", "we had a site visit at the hall on {day}, the ceiling's lower than the spec sheet said"),
               ("knowledge", "the organisers charge extra for anything plugged in after the build-up closes"),
               ("plan", "we'll run a rota of two-hour shifts so nobody loses their voice"),
               ("preference", "I definately want the demo screen facing the aisle, not the back wall"),
               ("knowledge", "freight has to land at the hall about {n} days before opening"),
               ("decision", "we're sharing the stand with our distributor to split costs")],
        loops=[dict(acts=["get {standmgr} to book freight for the stand kit", "have freight booked for the stand kit",
                          "make sure the stand kit gets shipped"],
                    opens=["stand freight is unbooked and the cut-off is close"],
                    done=["stand kit's on a pallet with the couriers", "freight collected the crates {day}",
                          "kit is at the hall, {standmgr} has the tracking"]),
               dict(acts=["make sure the exhibitor badges get registered", "get exhibitor passes sorted for the crew"],
                    done=["badges are registered, pick up at the exhibitor desk", "crew passes came through by email"]),
               dict(acts=["get the brochures to the printers", "have {designer} send the brochure files to print"],
                    done=["brochures arrived, {n} boxes", "print run is in the office, looks sharp"]),
               dict(acts=["order power and wifi for the stand", "get the stand power order in with the organisers"],
                    opens=["no word from the organisers on our power order", "power order is unconfirmed, chasing is on me"],
                    done=["organisers confirmed our power and wifi", "power's allocated, invoice paid {day}"]),
               dict(acts=["hire the badge scanners", "get lead-capture scanners rented via {standmgr}"],
                    done=["scanners are reserved, {few} of them", "lead scanners will be waiting on the stand"])],
        asks=[("how do you stop a trade show stand looking empty?",
               "Keep the front open with no table blocking it, have people standing rather than sitting, and put "
               "something moving on a screen at eye level."),
              ("what's a good way to qualify leads quickly at a stand?",
               "Agree three questions in advance - need, timeline, who decides - and tag each scan with a simple "
               "hot, warm or cold so sales knows where to start."),
              ("standing on a show floor all day wrecks me", "Cushioned shoes, insoles, a proper lunch break away "
               "from the stand, and lots of water make a real difference."),
              ("is it worth paying for a corner stand?", "Often yes - two open sides roughly doubles the foot "
               "traffic that can see you, if the budget stretches.")],
        maybe=["if we exhibited at every show sales asks about we'd live in convention centres",
               "in theory marketing should own the whole expo, but here we are",
               "remind me, which hall were we in last year, the one with the awful carpet?"],
    ),
    dict(
        name="software renewal", short=["the {tool} renewal", "{tool} procurement", "the {tool} contract", "the licence negotiation"],
        ents=dict(tool="VENDORS", rep="PEOPLE", cfo="PEOPLE", counsel="PEOPLE"),
        slots=[
            dict(id="contract_value", kind="number", num=(24, 160), fmt=["${}k", "${},000"], type="decision",
                 topic="the {tool} contract value",
                 q=["What's the annual contract value for {tool}?", "How much are we paying {tool} per year?"],
                 say=["the {tool} renewal comes in at {v} a year", "we've agreed {v} annually with {tool}",
                      "{tool} is costing us {v} per year on the new terms",
                      "finance has {v} earmarked for the {tool} contract"]),
            dict(id="renewal_deadline", kind="date", type="plan", topic="the {tool} renewal deadline",
                 q=["By what date must the {tool} renewal be signed?", "What's the cut-off for the {tool} renewal?"],
                 say=["the {tool} contract auto-renews on {v} unless we act", "renewal cut-off for {tool} is {v}",
                      "we have until {v} to sign with {tool}", "{tool} needs paperwork back by {v}"]),
            dict(id="seats", kind="number", num=(35, 420), fmt=["{} seats", "{} licences"], type="knowledge",
                 topic="the {tool} seat count",
                 q=["How many {tool} seats are we licensing?", "What's our seat count on {tool}?"],
                 say=["we're licensing {v} on {tool}", "the order form says {v}",
                      "true-up came to {v} for {tool}", "headcount plan needs {v} on {tool}"]),
            dict(id="procurement_owner", kind="name", pool="PEOPLE", type="relationship",
                 topic="the procurement lead",
                 q=["Who's leading procurement on the {tool} deal?", "Who owns the {tool} negotiation?"],
                 say=["{v} is leading the commercial side", "procurement lead on this is {v}",
                      "I've put {v} in charge of negotiating with {tool}", "{v} has the pen on the {tool} deal"]),
            dict(id="fallback", kind="name", pool="ALT_VENDORS", type="decision", topic="the fallback vendor",
                 q=["If {tool} falls through, which vendor is the backup?", "What's our plan B vendor?"],
                 say=["our fallback if {tool} won't budge is {v}", "plan B is {v}",
                      "we've kept {v} warm as the backup option"]),
        ],
        facts=[("decision", "we're not signing anything longer than two years with {tool}"),
               ("relationship", "{rep} is our account manager at {tool}, new in the role"),
               ("relationship", "{counsel} handles vendor contracts on the legal side"),
               ("event", "{tool} had a two-hour outage on {day} and nobody told us until afterwards"),
               ("knowledge", "about {n} of our licences haven't been logged into this quarter"),
               ("plan", "we'll push for a price freeze in exchange for a longer notice period"),
               ("relationship", "{cfo} has final say on anything over budget"),
               ("preference", "I'd rather pay a bit more than migrate mid-year, the disruption isn't worth it"),
               ("event", "{tool} sent over a quote on {day} that was frankly optimistic")],
        loops=[dict(acts=["get {counsel} to redline the MSA", "have legal mark up the {tool} MSA",
                          "get the MSA through legal review"],
                    opens=["MSA is sitting with legal, no redlines back yet", "we're blocked on legal for the {tool} MSA"],
                    done=["{counsel} sent the redlines back {day}", "legal's comments on the MSA are in",
                          "MSA came back from {counsel} with only minor edits"]),
               dict(acts=["get {cfo} to sign the purchase order", "get the PO approved by {cfo}"],
                    opens=["the PO is blocked on {cfo}", "need sign-off from {cfo} on the PO before {tool} will countersign"],
                    done=["{cfo} signed the PO", "PO's approved and with {rep}", "purchase order cleared finance {day}"]),
               dict(acts=["chase {rep} for the usage numbers", "get usage data out of {rep}",
                          "make sure {rep} sends the usage report"],
                    opens=["no word from {rep} on usage figures yet"],
                    done=["{rep} sent over the usage report", "usage data came through from {rep}, {n} active users",
                          "we have the usage breakdown now"]),
               dict(acts=["make sure the security questionnaire gets filled in",
                          "get infosec to finish the {tool} security questionnaire"],
                    done=["security questionnaire went back to {tool} on {day}", "infosec cleared the questionnaire"]),
               dict(acts=["get the unused add-on taken off the invoice", "cancel the add-on nobody uses"],
                    done=["the add-on is off the invoice", "{rep} removed the add-on from next year's bill"])],
        asks=[("what leverage do we have in a SaaS renewal?",
               "Timing (talk to them well before the auto-renew date), usage data showing shelfware, a credible "
               "alternative, and willingness to sign a slightly longer term in exchange for a price cap."),
              ("what should legal look for in a vendor MSA?",
               "Liability caps, data processing terms, auto-renewal and notice periods, price increase limits, "
               "termination for convenience, and what happens to your data when you leave."),
              ("vendors always send the quote at the last possible minute", "They often do - it reduces your "
               "room to negotiate. Putting your own deadline in writing early helps."),
              ("procurement calls drain me more than anything else in the week", "Understandable. A one-page list of must-haves and "
               "walk-away points can keep the calls short.")],
        maybe=["if we migrated everything ourselves we'd lose {few} months, not an option",
               "in a perfect world finance would own vendor renewals, not me",
               "which tool was it that double-billed us last spring, I forget"],
    ),
    dict(
        name="house sale", short=["the sale", "the house sale", "selling the house", "the house"],
        ents=dict(negotiator="PEOPLE", buyer="PEOPLE", surveyor="PEOPLE"),
        slots=[
            dict(id="asking", kind="number", num=(340, 980), fmt=["${}k", "${},000"], type="decision",
                 topic="the asking price",
                 q=["What's the asking price on the house?", "What are we listing the house at?"],
                 say=["we're listing the house at {v}", "asking price is set at {v}",
                      "the agent wants us on the market at {v}", "we agreed to go out at {v}"]),
            dict(id="estate_agent", kind="name", pool="ESTATE_AGENTS", type="decision", topic="our estate agent",
                 q=["Which estate agent is selling the house?", "Who did we sign with to sell the house?"],
                 say=["we signed with {v} to sell the house", "{v} has the listing", "the agency is {v}",
                      "we went with {v} on a sole agency deal"]),
            dict(id="completion", kind="date", type="plan", topic="the completion date",
                 q=["When is completion on the house sale?", "What's the completion date?"],
                 say=["completion is pencilled for {v}", "solicitors are working to completion on {v}",
                      "keys change hands on {v}", "target completion: {v}"]),
            dict(id="conveyancer", kind="name", pool="SOLICITORS", type="relationship", topic="our conveyancer",
                 q=["Who's doing our conveyancing?", "Which firm is handling the legal side of the sale?"],
                 say=["{v} is doing the conveyancing", "conveyancing sits with {v}",
                      "we instructed {v} for the legal side"]),
            dict(id="viewings", kind="number", num=(6, 40), fmt=["{} viewings"], type="event",
                 topic="the viewing count",
                 q=["How many viewings has the house had?", "How many people have viewed the house so far?"],
                 say=["we've had {v} so far", "the agent reports {v} to date", "tally is {v} since it listed"]),
        ],
        facts=[("decision", "we're not doing open houses, private viewings only"),
               ("relationship", "{negotiator} at the agency is the one actually returning calls"),
               ("event", "the photographer came round on {day} and the garden looks twice the size in the pictures"),
               ("knowledge", "the survey flagged some damp in the cellar, nothing structural"),
               ("plan", "we'll rent for a few months after completion rather than rush into a purchase"),
               ("relationship", "{buyer} is a first-time buyer, chain-free, which helps"),
               ("preference", "I'd take a slightly lower offer for a faster, cleaner sale"),
               ("decision", "the washing machine and the garden shed stay with the house"),
               ("knowledge", "the agent's fee is a percentage plus VAT, payable on completion")],
        loops=[dict(acts=["get the energy certificate sorted", "book the EPC assessment",
                          "make sure the EPC gets done before the listing goes live"],
                    done=["EPC came through, a solid C", "the energy certificate is on file with the agent"]),
               dict(acts=["get {negotiator} to chase the buyer's mortgage offer",
                          "have the agent push {buyer}'s lender for the mortgage offer"],
                    opens=["nothing from {buyer}'s lender yet", "mortgage offer still hasn't materialised"],
                    done=["{buyer}'s mortgage offer is in", "lender issued the offer {day}, {negotiator} forwarded it"]),
               dict(acts=["sort a date for the surveyor with {negotiator}", "get the survey visit booked"],
                    done=["{surveyor} came and went, report due next week", "survey visit happened {day}"]),
               dict(acts=["get our ID documents to the conveyancer", "send the conveyancer our ID and proof of address"],
                    opens=["conveyancer is waiting on our ID, that one's on me"],
                    done=["conveyancer has our ID docs", "ID checks cleared at the solicitor's"]),
               dict(acts=["book a house clearance firm for the loft", "get someone in to clear the loft"],
                    done=["the clearance van is booked for {day}", "loft's empty, clearance crew came {day}"])],
        asks=[("is it normal for the agent to push for a quick price drop?",
               "Fairly common if viewings are slow, but a few weeks of feedback is usually a better basis than a "
               "reflex cut. Ask what the feedback actually says about price versus the property."),
              ("what can hold up exchange of contracts?",
               "Slow searches, mortgage offers, survey issues, missing paperwork on past works, and anyone in the "
               "chain not being ready. Chasing each one weekly keeps it moving."),
              ("strangers poking around my wardrobes is surreal", "It really is. Some people go out for a coffee "
               "during viewings so they don't have to watch."),
              ("how much should I declutter before photos?", "More than feels natural: clear surfaces, half the "
               "clothes out of wardrobes, and anything personal off the fridge.")],
        maybe=["if we'd sold last spring we'd have got more for it, probably",
               "in theory I should repaint the back bedroom, realistically no",
               "remind me, what did the agent say the neighbours sold for?"],
    ),
    dict(
        name="elder care", short=["Dad's care", "the care plan", "things with Dad", "Dad's situation"],
        ents=dict(sis="PEOPLE", gp="PEOPLE", handyman="PEOPLE"),
        slots=[
            dict(id="dad_care_firm", kind="name", pool="CARE_AGENCIES", type="decision", topic="Dad's care agency",
                 q=["Which agency is providing Dad's carers?", "Who's Dad's home care provider?"],
                 say=["we've signed Dad up with {v}", "Dad's carers come through {v}", "{v} is providing the carers",
                      "after the assessments we picked {v} for Dad"]),
            dict(id="care_hours", kind="number", num=(8, 40), fmt=["{} hours a week", "{} hrs weekly"], type="plan",
                 topic="Dad's weekly care hours",
                 q=["How many hours of care does Dad get each week?", "What's Dad's weekly care allocation?"],
                 say=["Dad's getting {v} of care", "care package is {v}", "the agency is covering {v} for Dad",
                      "{sis} and I agreed on {v} to start with"]),
            dict(id="care_start", kind="date", type="plan", topic="the care start date",
                 q=["When do Dad's carers start?", "What's the first day of Dad's care package?"],
                 say=["carers start with Dad on {v}", "the first visit is booked for {v}",
                      "Dad's care kicks in from {v}"]),
            dict(id="care_cost", kind="number", num=(180, 950), fmt=["${} a week", "${} per week"], type="decision",
                 topic="the weekly care cost",
                 q=["How much does Dad's care cost per week?", "What are we paying the agency weekly?"],
                 say=["Dad's care comes to {v}", "the agency bills {v}", "{sis} and I are splitting {v} between us"]),
            dict(id="care_coordinator", kind="name", pool="PEOPLE", type="relationship", topic="Dad's care coordinator",
                 q=["Who's Dad's care coordinator at the agency?", "Who do I call at the agency about Dad?"],
                 say=["{v} is Dad's coordinator at the agency", "our contact at the agency is {v}",
                      "anything about Dad's rota goes through {v}"]),
        ],
        facts=[("relationship", "{sis} lives closer, so she does the weekday drop-ins and I handle the admin"),
               ("relationship", "{gp} is Dad's GP, very patient with him"),
               ("event", "Dad had a fall in the kitchen on {day}, bruised but nothing broken"),
               ("knowledge", "Dad refuses to use the walking frame indoors, says it makes him feel old"),
               ("decision", "Dad stays in his own house for now, we revisit in the spring"),
               ("preference", "I want a weekly written update from the agency, not just phone calls"),
               ("knowledge", "the council assessment said he's entitled to about {n} funded hours"),
               ("plan", "we'll set up a shared calendar so {sis} and I can see every visit")],
        loops=[dict(acts=["get a key safe fitted at Dad's", "have a key safe put up by Dad's front door"],
                    done=["key safe's on the wall, code shared with the carers", "{handyman} put the key safe up {day}"]),
               dict(acts=["get the power of attorney forms to the solicitor", "make sure Dad's LPA paperwork gets filed"],
                    opens=["the power of attorney forms are still unsigned on Dad's sideboard",
                           "need Dad's signature on the LPA before anything can be registered"],
                    done=["LPA is registered", "the solicitor has the signed LPA forms, witnessed and all"]),
               dict(acts=["get {handyman} to fit grab rails in Dad's bathroom", "have grab rails put in for Dad"],
                    opens=["no word from {handyman} on the grab rails yet"],
                    done=["grab rails are up in the bathroom", "{handyman} fitted the rails, Dad grumbled but uses them"]),
               dict(acts=["set up repeat prescription delivery for Dad", "get Dad's prescriptions on home delivery"],
                    done=["the pharmacy delivers now, first drop {day}", "Dad's meds arrive at the door each month now"]),
               dict(acts=["book Dad's medication review with {gp}", "get Dad in front of {gp} for a meds review"],
                    done=["Dad's review with {gp} is in the diary for {day}", "{gp} reviewed Dad's meds, one dropped"])],
        asks=[("how do I talk to a stubborn parent about accepting help?",
               "Frame it around what they want to keep doing - staying at home, staying independent - and let "
               "them choose small things like the visit times. Small wins build trust."),
              ("what should a care agency's first week look like?",
               "Ideally the same one or two carers, a clear visit log, a call with you at the end of the week, "
               "and a care plan you've read and signed."),
              ("I feel guilty that I'm not doing more for Dad", "That's very common, and it says you care a lot. "
               "Organising the right help is doing something."),
              ("are key safes actually secure?", "Approved ones are reasonably secure if fitted properly out of "
               "sight and the code is changed now and then.")],
        maybe=["if Dad moved in with us we'd need {few} more bedrooms and a lot more patience",
               "someday we'll have to talk about selling his house, not yet",
               "what was that physio called, the one Dad actually got on with?"],
    ),
    dict(
        name="van fleet", short=["the fleet", "fleet renewal", "the vans", "the lease swap"],
        ents=dict(fleetmgr="PEOPLE", opsdir="PEOPLE", driverrep="PEOPLE"),
        slots=[
            dict(id="lessor", kind="name", pool="LESSORS", type="decision", topic="the leasing company",
                 q=["Which company are we leasing the new vans from?", "Who's the lessor on the new fleet?"],
                 say=["the new fleet is leased through {v}", "{v} came in best on the tender", "we're going with {v} for the vans",
                      "{opsdir} approved {v} as lessor"]),
            dict(id="van_count", kind="number", num=(6, 48), fmt=["{} vans"], type="decision", topic="the fleet size",
                 q=["How many vans are we leasing?", "How big is the new fleet?"],
                 say=["we're replacing the fleet with {v}", "order is for {v}", "fleet size going forward: {v}"]),
            dict(id="per_van", kind="number", num=(310, 890), fmt=["${} per van per month", "${} a van monthly"],
                 type="decision", topic="the per-van lease cost",
                 q=["What's the monthly lease per van?", "How much is each van costing us a month?"],
                 say=["lease rate landed at {v}", "we're paying {v}", "finance modelled it at {v}"]),
            dict(id="handover", kind="date", type="plan", topic="the fleet handover",
                 q=["When do we get the new vans?", "What's the handover date for the fleet?"],
                 say=["handover is {v}", "new vans arrive at the depot on {v}", "the lessor is delivering on {v}"]),
            dict(id="van_model", kind="thing", pool="VAN_MODELS", type="preference", topic="the van model",
                 q=["Which van model did we choose?", "What are the new vans?"],
                 say=["we've gone for the {v}", "drivers voted for the {v}", "the fleet will be all {v}"]),
        ],
        facts=[("decision", "the whole fleet goes electric, no diesel replacements"),
               ("relationship", "{fleetmgr} runs the depot and knows every van's quirks"),
               ("relationship", "{driverrep} speaks for the drivers and has concerns about range"),
               ("knowledge", "most routes are under {n} miles a day, so range shouldn't bite"),
               ("event", "one of the old vans failed its inspection on {day}, which sped all this up"),
               ("plan", "we'll phase the swap over two weeks so deliveries don't stop"),
               ("preference", "I'd rather over-spec the chargers now than dig the yard up twice")],
        loops=[dict(acts=["get {fleetmgr} to chase the charger installation quote", "get depot charger quotes in"],
                    opens=["depot charging quote hasn't come back", "still waiting on the electrician for the charger quote"],
                    done=["charger quote is in, cheaper than feared", "installers are booked for the depot chargers"]),
               dict(acts=["get the new vans added to the fleet insurance", "make sure the insurer has the new regs"],
                    done=["insurer has the new regs, cover starts {day}", "new vans are on the policy"]),
               dict(acts=["get the old vans collected by the auction house", "arrange disposal of the old vans"],
                    done=["old vans went off on a low-loader {day}", "auction house has the old fleet, sale is next month"]),
               dict(acts=["run a driver briefing on the electric vans", "get {driverrep} to organise driver training"],
                    done=["drivers had the briefing, {n} turned up", "{driverrep} ran the training session {day}"]),
               dict(acts=["get telematics fitted on the new fleet", "have trackers installed in the new vans"],
                    done=["telematics is live on every van", "trackers are reporting, {fleetmgr} checked the dashboard"])],
        asks=[("what do drivers usually worry about with electric vans?",
               "Range in winter, where to charge mid-route, payload limits, and getting stuck if something runs "
               "late. Real route data and a charging plan settle most of it."),
              ("lease or buy for a small delivery fleet?",
               "Leasing spreads cost and hands over maintenance risk; buying is cheaper over a long life if you "
               "have the cash and a good workshop."),
              ("fleet admin is my least favourite part of the job", "Fair - it's the kind of work nobody notices "
               "until it goes wrong."),
              ("how often should fleet vans be serviced?", "Follow the manufacturer schedule, with a quick walk-round "
               "check by drivers every day.")],
        maybe=["if diesel stayed cheap we'd probably have dragged this out another year",
               "in theory someone should repaint the depot lines, not my problem though",
               "with luck the old vans fetch something at auction, no promises"],
    ),
    dict(
        name="junior football club", short=["the club", "the under-elevens", "club stuff", "the football club"],
        ents=dict(coach="PEOPLE", treasurer="PEOPLE", parentrep="PEOPLE"),
        slots=[
            dict(id="club_subs", kind="number", num=(60, 240), fmt=["${} a season", "${} per player"], type="decision",
                 topic="the subs fee",
                 q=["How much are the club subs this season?", "What do parents pay for the season?"],
                 say=["subs are {v}", "the committee voted subs at {v}", "{treasurer} set subs to {v}",
                      "parents are being asked for {v}"]),
            dict(id="home_pitch", kind="place", pool="PITCHES", type="plan", topic="our home pitch",
                 q=["Where do the kids play home games?", "What's our home ground this season?"],
                 say=["home games are at {v}", "the council gave us {v} for home fixtures",
                      "we've got {v} on Saturday mornings"]),
            dict(id="kit_supplier", kind="name", pool="KIT_SUPPLIERS", type="decision", topic="the kit supplier",
                 q=["Who's supplying the new club kit?", "Which company is making the kits?"],
                 say=["kit's coming from {v}", "we ordered through {v}", "{v} is doing the shirts and shorts"]),
            dict(id="first_match", kind="date", type="event", topic="the season opener",
                 q=["When's the first match of the season?", "When does the season start?"],
                 say=["the season opens {v}", "first fixture is {v}", "league has us kicking off on {v}"]),
            dict(id="squad_size", kind="number", num=(12, 22), fmt=["{} players", "{} kids"], type="knowledge",
                 topic="the squad size",
                 q=["How many kids are in the squad?", "How big is the squad?"],
                 say=["we've registered {v}", "the squad is {v}", "sign-ups closed at {v}"]),
        ],
        facts=[("relationship", "{coach} coaches, I'm club secretary, which apparently means everything else"),
               ("relationship", "{treasurer} keeps the books and hates cash"),
               ("relationship", "{parentrep} is the parents' rep and runs the group chat"),
               ("decision", "every kid gets equal minutes, no exceptions"),
               ("event", "we lost the first friendly on {day} but the kids loved it"),
               ("knowledge", "the league wants registrations submitted {n} days before the first fixture"),
               ("preference", "I'm not running another bake sale, we'll find a sponsor instead")],
        loops=[dict(acts=["get {coach}'s safeguarding check renewed", "make sure the coaches' safeguarding checks are current"],
                    opens=["{coach}'s safeguarding check has lapsed and nobody's chased it"],
                    done=["{coach}'s check came back clear", "safeguarding certificates are all in date now"]),
               dict(acts=["book the pitch with the council", "get the pitch booking confirmed"],
                    opens=["no confirmation from the council on the pitch yet"],
                    done=["council confirmed the pitch for the season", "pitch booking's confirmed, invoice paid"]),
               dict(acts=["restock the first aid kit", "get {parentrep} to restock the first aid bag"],
                    done=["first aid bag is full again", "{parentrep} restocked the kit, ice packs and all"]),
               dict(acts=["sort a minibus for the away games", "line up transport for away fixtures"],
                    done=["minibus is booked for every away game", "we have a driver and a minibus for the season"]),
               dict(acts=["get the kit order placed", "have {treasurer} pay for the kit order"],
                    done=["kit order is in, delivery in a fortnight", "the kit arrived, {n} shirts and all the right sizes"])],
        asks=[("how do you handle pushy parents on the touchline?",
               "Set expectations in writing at the start, agree a simple touchline code, and have the coach talk "
               "to repeat offenders privately rather than in front of the kids."),
              ("what's a fair way to pick a captain for kids?", "Rotate it - every child gets a turn, and it "
               "stops it becoming a popularity contest."),
              ("volunteering for the club eats my whole Saturday", "It does. It might be worth sharing some jobs "
               "out to the other parents."),
              ("ideas for raising club funds without bake sales?", "A local business sponsoring the shirts, a "
               "sponsored penalty shoot-out, or a quiz night for parents.")],
        maybe=["if we got a second team going we'd need {few} more coaches",
               "in theory the kit should be washed by the club, realistically parents do it",
               "which lot knocked us out of the cup last year, I can never recall"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "Correction for the record - {old} was wrong, {say}", (), "any"),
    ("explicit", "Small correction re {topic} - should read {v}", (), "any"),
    ("explicit", "correction on {topic}: {v}, not what I sent before", (), "any"),
    ("actually", "It's actually {v} for {topic}", (), "any"),
    ("actually", "Hmm, actually {say}", (), "any"),
    ("actually", "Ah wait, {topic} is actually {v}", (), "same"),
    ("misspoke", "I had that wrong - {say}", (), "any"),
    ("misspoke", "My mistake on {topic}, {say}", (), "same"),
    ("misspoke", "Ignore my earlier number, {say}", ("number",), "any"),
    ("misspoke", "Typo on my part earlier, {say}", (), "same"),
    ("change", "Make that {v}", (), "same"),
    ("change", "Change request approved: {say}", (), "later"),
    ("change", "New direction from above, {say} rather than {old}", (), "later"),
    ("moved", "{Topic} has slipped to {v}", ("date",), "later"),
    ("moved", "{Topic} was pulled forward to {v}", ("date",), "later"),
    ("moved", "We've shifted {topic} over to {v}", ("date", "place"), "later"),
    ("is-now", "{Topic} is {v} as of now", (), "later"),
    ("is-now", "{Topic} now sits at {v}", ("number",), "later"),
    ("is-now", "heads up, {topic} has become {v}, no longer {old}", (), "later"),
    ("scratch", "strike that, {say}", (), "same"),
    ("scratch", "Disregard the {old} I gave you, {say}", (), "any"),
    ("implicit", "Status as of this morning: {say}", (), "later"),
    ("implicit", "Came out of the sync today, {say}", (), "later"),
    ("implicit", "Per the latest email thread, {say}", (), "later"),
    ("implicit", "Okay so where we've landed, {say}", (), "later"),
    ("updated", "Revised figure for {topic}, {old} went to {v}", ("number",), "later"),
    ("updated", "Update on {topic}: it's {v} now, was {old}", (), "later"),
    ("updated", "Status change on {topic} - we're now at {v}", ("number",), "later"),
    ("updated", "Status change on {topic}, {v} from here on", (), "later"),
    ("updated", "Latest on {topic}: {v} replaces {old}", (), "later"),
]

LOOP_OPEN = ["action on me: {act} {due}", "that one's on me, {act} {due}", "I've taken the action to {act}",
             "can you hold me to this: {act} {due}", "let's make sure I {act} {due}", "flag for me: {act}",
             "parking this with myself, {act} {due}", "my action from today's sync is to {act}",
             "adding to my pile: {act} {due}", "if I don't {act} nobody will",
             "mine to own: {act}, ideally {due}", "nudge me if I haven't managed to {act} {due}",
             "pls track this one for me, {act} {due}", "for my list, {act} ASAP",
             "I said I'd {act} {due}, so keep me honest", "that lands on my desk too: {act}",
             "I'll make it my job to {act} {due}"]
DUES = ["by EOW latest", "before Thursday's standup", "by close of play Tuesday", "ahead of the quarterly review",
        "inside a fortnight", "before the next steering call", "by month end at the outside",
        "before I'm off on leave", "no later than Wednesday lunchtime", "before Monday's ops huddle"]

ACK = ["Logged against your notes.", "Noted, carrying on.", "Okay, that's captured.", "Understood - filed away.",
       "Thanks, that's on record now.", "Sounds like it's moving along.", "Okay - tell me if that shifts.",
       "Right, I have that.", "Fine, noted for later.", "Good to know, noted."]
ACK_VALUE = ["Logged {v} as {topic}", "Okay - {topic} is {v}, noted", "Captured: {v} for {topic}",
             "Right, {v} it is for {topic}"]
ACK_CHANGE = ["Swapped {old} for {v} on {topic}", "Okay, {topic} updated to {v}", "Noted the change - {v} now, {old} is out",
              "Got it, using {v} going forward"]
ACK_TODO = ["Tracking that for you.", "Okay, that's an open action on your side.", "Added to your actions.",
            "I'll keep it on your tracker."]
ACK_DONE = ["Good, closing that one.", "Nice - that's cleared.", "Great, one fewer open item.",
            "Ticking it off your tracker."]

OPENERS = ["quick status dump", "got five mins between calls", "ok, {short}", "re {short}, quickly",
           "status on {short}", "evening, finally at a desk", "sorry, been firefighting all day", "catching up on {short}",
           "morning - coffee in hand", "right, admin hour", "another one for you", "hey, quick sync",
           "dumping my notes on you"]
GREETINGS = ["Hi {me}, go ahead.", "Hey {me} - what's the latest?", "Ready when you are.", "Here. Fire away.",
             "Hi! What needs tracking today?", "Good to have you back, {me}. What's moved?"]
CLOSERS = ["ok, back to calls", "that's everything for now", "right, next meeting", "cheers, that'll do",
           "ok thanks, signing off", "that's me finished for today"]
GOODBYES = ["Good luck with the next meeting.", "Speak later, {me}.", "Mind how you go, {me}.", "Go get some lunch!",
            "Enjoy the evening off."]
FILLERS = [("brb, courier", "No rush, still here when you're back."), ("hang on, someone at the door", "Go, I'll wait."),
           ("sorry, teams call dragging on", "No problem."), ("hmm let me check my notes", "Sure, take a minute."),
           ("haha", "🙂"), ("yup yup", "Alright, carry on."), ("lost my thread, what were we on?", "We'd got to {short}."),
           ("ta very much", "Any time, cheers!")]
RECAP_ASKS = ["where are we on {short}, top line?", "status check please?", "can I get a quick rollup of {short}?",
              "remind me what we've got on {short}"]
RECAP_TODO = ["Open actions on you: {todo}", "Still with you: {todo}", "Sitting with you still: {todo}"]
RECAP = ["Here's the picture on {short} - {body}.", "Rollup for {short}: {body}.", "Top line for you: {body}.",
         "As things stand: {body}."]
LEADS = ["headline on {short}: ", "{short} update - ", "FWIW, ", "heads-up re {short}, ", "quick one re {short}, "]
JOINERS = [" On a separate note, ", " Oh - and ", " Unrelated, but ", " Also, FYI, "]

PERSONAL = [("identity", "I run operations at {employer}"),
            ("identity", "I live in {city}, have done for years"),
            ("relationship", "my partner {partner} is a teacher, so summers are the only time we travel"),
            ("relationship", "my cousin {cousin} is my go-to when I need a spare pair of hands"),
            ("preference", "bullet points please, I read everything between meetings"),
            ("preference", "I don't do calls before nine unless something's on fire"),
            ("identity", "I manage a team of about a dozen people, plus two kids at home"),
            ("relationship", "{pet} is our very spoiled dog"),
            ("preference", "I'm off dairy at the moment, doctor's orders"),
            ("event", "{partner} and I finally had a weekend away without the kids"),
            ("identity", "I used to be a project manager in construction before this job")]

CHITCHAT = [("what's a decent desk lunch that isn't a sad sandwich?", "A grain bowl you prep on Sunday - "
             "rice or farro, roast veg, a protein and a jar of dressing - keeps for a few days."),
            ("my calendar looks like a game of tetris", "Try blocking two focus hours each morning before "
             "anyone else can grab them."),
            ("is it rude to eat during a video call?", "Camera off and mute, and most people won't mind - "
             "crunching into the mic is the real crime."),
            ("how do people stay on top of email?", "Batch it: check a few times a day, reply to quick ones "
             "immediately, and turn the rest into tasks."),
            ("I need a film for tonight, nothing heavy", "A heist comedy or an old romantic comedy - something "
             "you don't need to concentrate on."),
            ("the kids have decided they only eat beige food now", "A phase many parents know. Keep offering "
             "the other stuff alongside without making it a battle."),
            ("why are printers still so bad?", "A mix of cheap hardware, drivers nobody maintains and ink "
             "business models. It's not just you."),
            ("give me a random fact to share at lunch", "Honeybees can recognise individual human faces, at least "
             "in lab experiments."),
            ("should I get a standing desk?", "They help some people, but alternating and moving more matters "
             "more than standing all day."),
            ("any tips for falling asleep when my head's full of work?", "Write tomorrow's top three on paper "
             "before bed so your brain can let go of them."),
            ("I've been in back-to-back meetings since breakfast", "That's a long stretch. Even five minutes "
             "outside before the next one will help."),
            ("what's a good houseplant for an office with no sun?", "A ZZ plant or a snake plant - both "
             "cope with low light and forgetful watering."),
            ("I laughed so hard at a meme in a meeting", "Hopefully you were on mute. Those are the best laughs."),
            ("is it weird to schedule time with my own partner?", "Not weird at all - plenty of busy couples "
             "find it's the only way the time actually happens."),
            ("how do I say no to a meeting politely?", "Ask what outcome they need from you; often you can "
             "answer in a message and skip the meeting."),
            ("recommend a board game for the family", "Something cooperative tends to cause fewer arguments - "
             "or a quick card game the kids can win."),
            ("the train was delayed again", "Frustrating. At least it's reading time, if you can get a seat."),
            ("what should I cook for people who say they eat everything?", "A big tray bake or a pasta bake - "
             "easy to scale and hard to get wrong."),
            ("is there a trick to remembering names?", "Say the name back straight away and use it once more "
             "in the conversation - it helps it stick."),
            ("my work laptop takes ages to wake up every morning", "Usually updates queued overnight or too "
             "many startup apps. A proper restart once a week helps more than people expect.")]
REQUESTS = [("draft a note to {stranger} at {org} pushing our {day} call back a week, keep it short",
             "Hi {stranger},\n\nWould you mind if we moved our {day} call back by a week? Something's come up on "
             "my side. Happy to work around you.\n\nThanks,\n{me}"),
            ("condense this: '{org} says {big} customers were affected by the billing change and {stranger} "
             "wants {n} extra staff on the phones'",
             "{org}: {big} customers hit by the billing change; {stranger} is asking for {n} more phone staff."),
            ("shop names for a flower stall {stranger} is opening at the station?",
             "Some options: Platform Petals, {stranger}'s Stems, The Commuter's Bouquet, Bloom & Go, Last Train Posies."),
            ("write a haiku about an inbox with {few} unread messages", "{few} unread wait there / each one "
             "certain it's urgent / the kettle boils first"),
            ("fix the grammar: '{stranger} and me will attends the {org} meeting on {day}'",
             "'{stranger} and I will attend the {org} meeting on {day}.' - 'and I' as the subject, and 'attend' "
             "without the s."),
            ("help me answer {stranger}, who is asking for a discount of ${n} on a late invoice",
             "Hi {stranger}, thanks for raising it. Given the delay, we're happy to apply a ${n} discount to the "
             "invoice - a revised copy will follow shortly."),
            ("how do you say 'the parcel is at the front desk' in French?", "'Le colis est à l'accueil.'"),
            ("soften this: '{stranger}, {org} has ignored {n} of our emails'",
             "'Hi {stranger}, I wanted to follow up - we've sent a few emails to {org} and haven't heard back yet. "
             "Is there a better contact?'"),
            ("what do I pack for {few} nights away for work, cabin bag only?",
             "Two pairs of trousers, {few} shirts, one jumper, underwear and socks for {few} nights, chargers, a "
             "plug adaptor, liquids in the little see-through pouch, and shoes you can walk the terminal in."),
            ("explain what a mortgage is to my nine year old", "It's a big loan from the bank to buy a house, "
             "which you pay back a little every month for many years - and the bank charges a bit extra for lending it.")]
DISTRACTORS = ["if every meeting had an agenda I'd get {few} hours a week back",
               "what's that polling tool the team likes, again?",
               "in theory I should do my expenses weekly, but here we are",
               "someday I want to learn the piano properly",
               "I already renewed the car tax, that's not outstanding",
               "with any luck facilities will fix the coffee machine on our floor",
               "I could reorganise my whole inbox this weekend, or I could sleep",
               "the team already sorted the holiday rota among themselves, nothing for me there",
               "honestly somebody should write down how the expense tool works, not volunteering though"]
UNSURE = ["I don't have that one on record.", "That hasn't come up between us yet.",
          "Nothing logged on that, I'm afraid.", "I can't see that anywhere in what you've told me."]
SHRUG = ["Ha, fair point.", "Hard to argue with.", "Relatable, honestly.", "Couldn't agree more.", "Ha, point taken."]
SUGGEST = [("what have I dropped?", "Maybe a quick check that every open item has a named owner before {day}, "
            "and a note to anyone waiting on you."),
           ("sense check?", "Worth getting one more opinion before you commit, but it sounds reasonable."),
           ("where would you start?", "I'd clear whatever is blocking other people first, then block time on "
            "{day} for the rest."),
           ("other angles I should consider?", "One list with a name and a date against every item could save "
            "you some chasing; I can sketch one out."),
           ("am I overthinking this?", "A little, maybe. Pick a deadline for the decision and stick to it.")]


def _lower_ok():
    """Capitalised forms of every word that can open a user sentence in this bank (names and 'I' excluded)."""
    texts = list(LOOP_OPEN) + list(DISTRACTORS) + [t for _, t in PERSONAL]
    frames = set(c[1] for c in CORRECTIONS)
    texts += list(frames)
    for th in THREADS:
        texts += list(th["maybe"]) + [t for _, t in th["facts"]]
        for s in th["slots"]:
            texts += list(s["say"])
        for lp in th["loops"]:
            texts += list(lp["acts"]) + list(lp.get("opens", [])) + list(lp["done"])
    words = set()
    for t in texts:
        w = t.split(" ")[0].rstrip(",:")
        if (w[:1].isalpha() and w.replace("'", "").replace("-", "").isalpha() and w.split("'")[0] != "I"
                and (w[:1].islower() or t in frames)):
            words.add(w[:1].upper() + w[1:])
    return r"(?:" + "|".join(sorted(words)) + r")\b"


LOWER_OK = _lower_ok()
del _lower_ok
