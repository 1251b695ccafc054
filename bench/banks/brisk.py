"""Phrase bank 'brisk': a busy manager/consultant who writes in clipped business shorthand (EOD, owner, blocker,
arrows, colons, fragments). Written independently of the other banks: no names, topics or sentences in common
(gen.py --check verifies). Placeholders: {v}/{old} slot values, {topic}, thread entities, {me} the user,
{n}/{n2}/{big}/{few} fresh numbers, {day}, {due}, {stranger}/{org} (one-off requests only)."""

NAME = "brisk"

USERS = ["Annelies Brouwer", "Henrik Dahl", "Karoliina Virtanen", "Frederik Holm", "Liesbeth Smit", "Tobias Kessler",
         "Maja Lund", "Jens Mortensen", "Ylva Bergström", "Rutger van Dijk", "Birgit Hoffmann", "Anders Haugen",
         "Elina Koskinen", "Claus Winther", "Marieke Visser", "Lukas Brenner"]

PEOPLE = ["Anneke", "Bram", "Ruud", "Femke", "Joost", "Wouter", "Lotte", "Maartje", "Sjoerd", "Katrin", "Jürgen",
          "Dieter", "Ute", "Heike", "Matthias", "Wiebke", "Torben", "Mette", "Rasmus", "Signe", "Søren", "Freja",
          "Mads", "Astrid", "Björn", "Linnea", "Pernille", "Ebba", "Gustav", "Sigrid", "Torstein", "Håkon",
          "Solveig", "Eirik", "Ragnhild", "Aino", "Juha", "Päivi", "Eero", "Tuula", "Kalle", "Ilkka", "Annika",
          "Veikko", "Kerttu", "Lasse", "Greta", "Ulrike", "Hendrik", "Vibeke"]
STRANGERS = ["Mr. Vandersloot", "Dr. Kuusela", "Gerda Pfeiffer", "Herr Lindemann", "Ms. Oosterhuis", "Dr. Rantanen",
             "Ole Sandvik", "Wilhelmina Kamp", "Mrs. Eklund", "Bertil Sjöberg", "Hennie Grootveld", "Frau Albrecht"]
ORGS = ["Fjordline Telecom", "Vesterbro Dental", "Kronborg Insurance", "Polderbank", "Saimaa Energy",
        "Ringvej Couriers", "Rheinpfad Logistics", "Tulpenveld Leasing", "Nordkapp Mobile"]
VENDORS = ["Cloudvane", "Stackhaus", "Ledgerly", "Nordsync", "Quillbase", "Datavik", "Helmstad Software",
           "Brightloop"]
TIERS = ["Premier support", "Enterprise Plus", "the Business Critical tier", "Gold support", "Standard support",
         "the Advanced tier", "Priority Care", "Platinum Assist"]
BUILDINGS = ["Havnehuset", "the Kanaalgebouw", "Sluisweg Works", "Tornikatu House", "Ravnsborg Yard",
             "Speicherhof", "Lindholmen Studios", "Keizerhof", "the Nyhavn Loft", "Vaskeriet"]
MOVERS = ["Ahlberg Movers", "Flytt & Co", "Van Leeuwen Verhuizingen", "Kranich Umzüge", "Øresund Relocation",
          "Pakkaus Oy", "Boxline Movers", "Hjelm Transport"]
BOARDROOMS = ["the Keizersgracht boardroom", "Hotel Skeppsholm", "the Alster Club", "the Strandvejen villa",
              "the Vondel room", "the Aurora suite", "the Bryggen loft", "the Elbblick salon"]
AGENDA = ["the pricing overhaul", "the Nordics expansion", "the Series C plan", "the reorg", "the churn deep-dive",
          "the partner channel strategy", "the platform migration", "the acquisition shortlist",
          "the savings programme"]
FUNDS = ["Lumikki Ventures", "Fjellstad Capital", "Zuidas Partners", "Isar Growth", "Skagen Equity"]
CLIENTS = ["Vantaa Foods", "Hollandia Packaging", "Kattegat Shipping", "Alpenmilch", "Norrsken Pharma",
           "Veluwe Timber", "Jutland Agri", "Bodensee Optics"]
AUDIT_SITES = ["the Esbjerg depot", "the Vaasa mill", "the Venlo warehouse", "the Kiel distribution centre",
               "the Drammen plant", "the Linköping lab", "the Oulu office", "the Zwolle yard"]
DATAROOMS = ["Vaultline", "Dossierly", "Boxwarden", "Filegate", "Clearroom", "Sharevault", "Ledgerdock"]
SKO_VENUES = ["Hotel Bryggeriet", "the Kulturhuset hall", "Schloss Rabenau", "the Amstel Works", "Hotel Hvidesand",
              "Messehalle Nord", "Fabriek Zuid", "the Saaristo Resort"]
SKO_THEMES = ["Own the Quarter", "Built to Win", "Pipeline or Bust", "Next Gear", "Go Long", "Raise the Bar",
              "Close Strong", "Bold Moves"]
EVENT_AGENCIES = ["Stagecraft Nord", "Spotlicht Events", "Huddle & Hall", "Kolibri Live", "Brandstof Productions"]
TAX_FIRMS = ["Mertens Tax Advisory", "Skatt & Co", "Vos Belastingadvies", "Numeris Accounting", "Rahkonen Tilit",
             "Kamphuis Fiscaal", "Holmberg Revision"]
INDEX_FUNDS = ["the Nordic equity tracker", "an all-world ETF", "the euro bond fund", "a world small-cap ETF",
               "the sustainable world index", "the Dutch dividend fund", "a global value ETF"]
BANKS = ["Sparbank Nord", "Vestkyst Bank", "Hafen Privatbank", "Polder Spaarbank", "Aalto Savings"]
HOMETOWNS = ["Groningen", "Bergen", "Odense", "Freiburg", "Uppsala", "Turku", "Haarlem", "Lübeck"]
EMPLOYERS = ["Northmark Advisory", "Kessel & Vries", "Bluefjord Consulting", "Aurelius Strategy"]
PETS = ["Bolle", "Mustikka", "Pünktchen", "Smulan"]

PERSONAL_ENTS = dict(partner="PEOPLE", cousin="PEOPLE", city="HOMETOWNS", employer="EMPLOYERS", pet="PETS")

THREADS = [
    dict(
        name="vendor contract renewal",
        short=["the renewal", "the {vendor} renewal", "{vendor}", "contract stuff", "the {vendor} contract"],
        ents=dict(vendor="VENDORS", am="PEOPLE", legal="PEOPLE", cfo="PEOPLE", buyer="PEOPLE"),
        slots=[
            dict(id="yearly_fee", kind="number", num=(60, 480), fmt=["€{}k", "€{},000"], type="decision",
                 topic="the {vendor} annual fee",
                 q=["What's the annual fee on the {vendor} renewal?", "How much per year are we paying {vendor}?",
                    "What contract value did we land on with {vendor}?"],
                 say=["{vendor} pricing → {v} p.a.", "contract value: {v} per year", "{vendor} renewal: {v} a year, all-in", "annual fee w/ {vendor} → {v}",
                      "we're at {v} per annum on the {vendor} deal", "{vendor} came in at {v} per year",
                      "renewal number is {v} annually", "landing the {vendor} contract at {v} a year",
                      "fee line for {vendor}: {v} yearly, licences + support"]),
            dict(id="discount", kind="number", num=(10, 32), fmt=["{}%", "{} percent"], type="decision",
                 topic="the renewal discount",
                 q=["What percentage off did {vendor} give us?", "What discount did we get from {vendor}?", "How big is the {vendor} renewal discount?"],
                 say=["off-list discount → {v}", "net of discount we're {v} below list", "{vendor} agreed to {v} off list", "discount on the renewal: {v}",
                      "we squeezed {v} off the {vendor} price", "{v} discount, tied to the multi-year",
                      "renewal discount locked at {v}", "{buyer} in procurement got {v} off"]),
            dict(id="sign_by", kind="date", type="plan", topic="the {vendor} signature deadline",
                 q=["By when does the {vendor} paperwork have to be signed?", "When does the {vendor} contract need to be signed?", "What's the sign-by date for {vendor}?"],
                 say=["{vendor} paperwork due back {v}", "signatures needed no later than {v}", "{vendor} contract must be signed by {v}", "sign-by date: {v}",
                      "hard deadline for signatures is {v}", "need ink on the {vendor} renewal by {v}",
                      "notice window closes {v}, signatures before then", "{v} = last day to sign"]),
            dict(id="signatory", kind="name", pool="PEOPLE", type="relationship",
                 topic="our signatory on the {vendor} contract",
                 q=["Who signs the {vendor} contract on our side?", "Who's the signatory for the {vendor} renewal?"],
                 say=["sig block on our side = {v}", "{legal} routes it to {v} to sign", "{v} signs for us", "signatory on our side: {v}", "{v} has signing authority on this",
                      "contract goes to {v} for signature", "{v} is the person putting pen to paper"]),
            dict(id="tier", kind="thing", pool="TIERS", type="decision", topic="the {vendor} support tier",
                 q=["What support package did we pick for {vendor}?", "Which support tier are we taking with {vendor}?", "What support level is in the {vendor} renewal?"],
                 say=["support package: {v}", "{am} pitched {v} and we took it", "going with {v} on the support side", "support tier → {v}", "we're on {v} for the new term",
                      "{v} is what we're buying for support", "{vendor} support level: {v}"]),
        ],
        facts=[("decision", "{vendor}: going multi-year only if the uplift stays under inflation"),
               ("relationship", "{am} = our account mgr at {vendor}, responsive but slow on paperwork"),
               ("knowledge", "auto-renew clause kicks in if we miss the notice window, classic trap"),
               ("event", "{vendor} had a big outage {day} → leverage for SLA credits"),
               ("relationship", "{legal} from legal owns the redlines on this"),
               ("decision", "dropping the analytics add-on, nobody touches it"),
               ("knowledge", "usage data: roughly {n}% of seats inactive"),
               ("plan", "plan: competing quote in hand before the negotiation call"),
               ("preference", "want quarterly invoicing, not a single annual lump")],
        loops=[dict(acts=["send {legal} the redlined MSA", "get the MSA markup over to {legal}"],
                    opens=["redlines on the MSA: with me, not started"],
                    done=["{legal} has the marked-up MSA in the inbox", "MSA markup sitting with legal now"]),
               dict(acts=["get {cfo}'s sign-off on the renewal spend", "get the spend approved by {cfo}"],
                    opens=["pending {cfo}'s sign-off on the {vendor} spend", "blocker: no budget approval from {cfo} yet"],
                    done=["{cfo} approved, PO raised", "spend cleared finance, PO number issued"]),
               dict(acts=["pull seat usage numbers for last quarter", "export the seat utilisation report"],
                    opens=["seat usage data: nobody has pulled it, falls to me"],
                    done=["usage report exported, in the renewal folder", "utilisation data pulled, about a third of seats idle"]),
               dict(acts=["chase {am} for the revised quote", "get a fresh quote out of {am}"],
                    opens=["still no revised quote from {am}, need to chase"],
                    done=["revised quote landed from {am}", "{am} came back w/ new pricing, PDF attached to the deal"])],
        asks=[("usual leverage points in a SaaS renewal?",
               "Usage data showing idle seats, a credible alternative quote, timing (vendors care about their quarter "
               "end), multi-year commitment in exchange for a price cap, and any SLA misses from the past year."),
              ("what's a sane price-uplift cap to ask for?",
               "Many buyers ask for increases tied to an inflation index, or a fixed low single-digit percentage per "
               "year, written into the contract rather than left to the renewal."),
              ("procurement portals are the worst invention ever", "They really can be painful. If you send me the "
               "fields it wants, I can help you prefill the text so it's a copy-paste job.")],
        maybe=["if {vendor} doubled the price we'd probably walk, but that won't happen",
               "could in theory bring this in-house, never gonna happen though",
               "who negotiated the original deal, was that before my time?"],
    ),
    dict(
        name="office move", short=["the office switch", "office move", "the new office", "move logistics"],
        ents=dict(facilities="PEOPLE", it_lead="PEOPLE", agent="PEOPLE", landlord="PEOPLE"),
        slots=[
            dict(id="new_site", kind="place", pool="BUILDINGS", type="decision", topic="the new office",
                 q=["What's the new office address?", "Where is the new office?", "Which building are we moving into?"],
                 say=["signing for {v}", "address going forward: {v}", "new office = {v}", "we're moving into {v}", "space secured at {v}", "new HQ → {v}",
                      "{v} it is for the new office", "landing at {v} after the move"]),
            dict(id="move_date", kind="date", type="plan", topic="move day",
                 q=["When is the office move?", "What's the date of move day?"],
                 say=["keys to the new place, move-in {v}", "move weekend starts {v}", "move day: {v}", "movers booked for {v}", "we move on {v}", "target move date {v}",
                      "{v} is the big move", "everyone out of the old place by {v}"]),
            dict(id="desks", kind="number", num=(40, 220), fmt=["{} desks", "{} workstations"], type="plan",
                 topic="the desk count",
                 q=["What's the desk count for the new office?", "How many desks are in the new office?", "How many workstations did we plan for?"],
                 say=["fit-out spec says {v}", "{facilities} confirmed {v}", "floor plan has {v}", "we're fitting out {v}", "desk count → {v}", "{v} in the new layout",
                      "going with {v} total, hot-desk ratio included"]),
            dict(id="rent", kind="number", num=(18, 95), fmt=["€{}k a month", "€{},000 per month"],
                 type="decision", topic="the monthly rent",
                 q=["What did we agree on rent for the new office?", "How much per month does the new space cost us?"],
                 say=["headline rent {v}", "we're paying {v} for the new floor", "rent: {v}", "new space costs {v}", "{landlord} agreed {v}",
                      "monthly rent lands at {v}, service charge on top", "lease terms → {v}"]),
            dict(id="movers", kind="name", pool="MOVERS", type="decision", topic="the removals contractor",
                 q=["Which movers did we hire?", "Which moving company are we using?", "Who's doing the physical move?"],
                 say=["moving contract → {v}", "{facilities} picked {v} for the crates + transport", "{v} has the crates + trucks", "movers → {v}", "we booked {v} for the heavy lifting",
                      "moving co: {v}", "{v} won the moving tender"]),
        ],
        facts=[("decision", "hot-desking for everyone except finance"),
               ("relationship", "{facilities} runs point on the fit-out"),
               ("knowledge", "lease on the old place ends with the quarter, no extension possible"),
               ("event", "site walk-through {day}: light is great, kitchen is tiny"),
               ("plan", "IT cutover over a weekend so nobody loses a workday"),
               ("preference", "I want proper phone booths, open-plan calls are killing us"),
               ("relationship", "{it_lead} owns network + AV for the new space"),
               ("knowledge", "bike storage for roughly {n} bikes in the basement"),
               ("relationship", "{agent} is our broker, earns the fee from the landlord side")],
        loops=[dict(acts=["book the goods lift for move day", "reserve the freight elevator with building mgmt"],
                    opens=["goods lift for move day: unbooked, mine to fix"],
                    done=["goods lift reserved for the whole morning", "building mgmt confirmed our elevator slot"]),
               dict(acts=["send the move FAQ to all staff", "get the move FAQ out to everyone"],
                    opens=["move FAQ: drafted in my head, nowhere else"],
                    done=["FAQ is out on the all-staff list", "everyone has the move FAQ, {n} questions back already"]),
               dict(acts=["sort access badges for the new building", "get badges ordered for the new space"],
                    opens=["blocker: no badges for the new building yet"],
                    done=["badges printed, {facilities} is handing them out", "access cards activated for the whole team"]),
               dict(acts=["give notice on the old lease", "serve notice to the current landlord"],
                    opens=["notice on the old lease still outstanding"],
                    done=["notice served, landlord acknowledged in writing", "old lease terminated on paper"])],
        asks=[("how do teams usually handle seating when moving to hot desks?",
               "Common patterns: neighbourhoods per team rather than fixed seats, a booking tool for busy days, "
               "lockers for personal stuff, and a few anchor days when each team comes in together."),
              ("what gets forgotten in an office move?",
               "Mail redirection, updating the address on invoices and the website, printer and badge setup, "
               "first-aid kits, and checking the network works before people show up."),
              ("boxes everywhere, can't find my charger", "Classic move chaos. Label a 'first day' box with "
               "chargers, adapters and the kettle - it saves a lot of hunting.")],
        maybe=["if we'd taken the bigger floor we'd have room for a gym, dream on",
               "wonder if anyone will actually use the rooftop terrace",
               "who picked the carpet in the old place, genuinely curious?"],
    ),
    dict(
        name="quarterly board meeting", short=["the board meeting", "board prep", "the board deck", "BoD prep"],
        ents=dict(chair="PEOPLE", ea="PEOPLE", fin="PEOPLE", investor="FUNDS"),
        slots=[
            dict(id="board_date", kind="date", type="plan", topic="the board meeting date",
                 q=["When is the next board meeting?", "What date is the quarterly board?"],
                 say=["calendar hold for the board: {v}", "BoD convenes {v}", "board is on {v}", "next BoD: {v}", "directors confirmed {v} for the board",
                      "quarterly board lands {v}", "{v} = board day", "board meeting set for {v}"]),
            dict(id="board_loc", kind="place", pool="BOARDROOMS", type="plan", topic="the board meeting location",
                 q=["Where are the directors meeting this quarter?", "Where is the board meeting being held?", "What's the venue for the board meeting?"],
                 say=["{ea} secured {v} for the board", "directors meet at {v} this quarter", "board meets at {v}", "location for the board: {v}", "we're hosting the board at {v}",
                      "{v} booked for the board", "board venue → {v}"]),
            dict(id="deck_len", kind="number", num=(14, 48), fmt=["{} slides", "{} pages"], type="decision",
                 topic="the board deck length",
                 q=["How many pages is the board pack?", "How long is the board deck?", "How many slides are in the board deck?"],
                 say=["deck length: {v}", "pack runs to {v}, trimming hard", "main deck is {v}", "deck's at {v} excl. appendix", "capping the board deck at {v}",
                      "board deck → {v}", "we're at {v} in the latest cut"]),
            dict(id="revenue", kind="number", num=(12, 95), fmt=["€{} million", "{} million euros"],
                 type="knowledge", topic="the quarterly revenue figure",
                 q=["What revenue number are we reporting to the board?", "What's the quarter's revenue in the deck?"],
                 say=["quarter closed at {v} revenue", "board slide shows {v} in revenue", "revenue for the quarter: {v}", "we're reporting {v} in revenue", "topline → {v}",
                      "{fin} has the quarter closing at {v}", "the number going to the board is {v}"]),
            dict(id="lead_item", kind="thing", pool="AGENDA", type="decision", topic="the headline agenda item",
                 q=["What's the main topic for the board meeting?", "What's the headline agenda item this quarter?"],
                 say=["agenda topper: {v}", "the board wants to spend most of the time on {v}", "headline item: {v}", "main discussion is {v}", "{chair} wants {v} at the top of the agenda",
                      "we're leading with {v}", "big-ticket item → {v}"]),
        ],
        facts=[("relationship", "{chair} chairs the board, hates surprises, pre-read or bust"),
               ("decision", "pre-read goes out a week ahead, no exceptions this time"),
               ("relationship", "{ea} handles logistics + calendar holds for the directors"),
               ("event", "last board we got grilled on burn, so the burn slide goes up front"),
               ("knowledge", "{investor} usually sends {few} observers who dial in"),
               ("plan", "closed session at the end, management steps out"),
               ("preference", "appendix separate, main deck lean, no walls of text"),
               ("relationship", "{fin} owns the numbers in the financials section")],
        loops=[dict(acts=["circulate the pre-read to the directors", "get the pre-read out to the board"],
                    opens=["pre-read hasn't gone to the directors yet, my job"],
                    done=["pre-read is in every director's inbox", "board portal updated with the pre-read"]),
               dict(acts=["lock the financials with {fin}", "finalise the numbers with {fin}"],
                    opens=["need to chase {fin} on final numbers, deck blocked until then"],
                    done=["{fin} signed off the financials, numbers frozen", "numbers frozen, no more edits"]),
               dict(acts=["book dinner for the directors the night before", "reserve a table for the board dinner"],
                    opens=["board dinner: no table yet, I said I'd handle it"],
                    done=["table for the board dinner confirmed", "dinner's reserved, {ea} sent the invite"]),
               dict(acts=["draft the CEO letter for the pack", "write the opening memo"],
                    opens=["tbd: CEO letter for the pack, owner = me"],
                    done=["CEO letter drafted and in review", "opening memo is written, {chair} has seen it"])],
        asks=[("how much detail goes in the board deck vs the appendix?",
               "Main deck: decisions needed, the few metrics that tell the story, and risks. Appendix: the "
               "supporting tables and anything a director might ask about but won't need to discuss."),
              ("good way to present a missed target to a board?",
               "Say it early and plainly, show the cause, what you've already changed, and the revised forecast "
               "with the assumptions behind it. Boards mind surprises more than misses."),
              ("another board cycle, I'm fried", "Understandable - it's a heavy lift every quarter. Want me to "
               "draft a reusable skeleton for the pack so next time starts further along?")],
        maybe=["if {chair} asks about headcount again I might just hand over the org chart lol",
               "in theory we could go to a bimonthly cadence, nobody wants that",
               "what did we decide last time about the option pool? can't recall"],
    ),
    dict(
        name="client audit", short=["the audit", "the {client} audit", "audit prep", "fieldwork"],
        ents=dict(client="CLIENTS", auditor="PEOPLE", controller="PEOPLE", associate="PEOPLE"),
        slots=[
            dict(id="fieldwork", kind="date", type="plan", topic="the fieldwork start",
                 q=["When do we start on site at {client}?", "When does fieldwork start at {client}?", "What's the fieldwork start date for the {client} audit?"],
                 say=["we start testing at {client} on {v}", "fieldwork window opens {v}", "fieldwork starts {v}", "on site at {client} from {v}", "{client} fieldwork kicks off {v}",
                      "team lands on site {v}", "fieldwork start locked for {v}"]),
            dict(id="sample_size", kind="number", num=(25, 140), fmt=["{} samples", "{} items"], type="decision",
                 topic="the sample size",
                 q=["What's the sample size for testing?", "How many samples are we pulling at {client}?"],
                 say=["sample count: {v}", "{v} selected for testing", "sample size → {v}", "testing {v} for revenue", "we're pulling {v}",
                      "{auditor} agreed {v} for the sampling", "sampling plan: {v}"]),
            dict(id="site", kind="place", pool="AUDIT_SITES", type="plan", topic="the fieldwork site",
                 q=["Where are we based for the {client} fieldwork?", "Where is fieldwork happening?", "Which {client} site are we auditing?"],
                 say=["{client} is hosting us at {v}", "base camp for fieldwork: {v}", "fieldwork at {v}", "we'll be based at {v}", "{client} wants us at {v}",
                      "site for the audit: {v}", "testing happens at {v}"]),
            dict(id="eng_lead", kind="name", pool="PEOPLE", type="relationship", topic="the engagement lead",
                 q=["Who owns the {client} engagement?", "Who's leading the {client} engagement?", "Who is the engagement lead on the audit?"],
                 say=["{v} signs off as engagement lead", "{client} engagement sits with {v}", "{v} leads the engagement", "engagement lead → {v}", "{v} is running point on the {client} audit",
                      "{v} owns the engagement", "lead on this engagement: {v}"]),
            dict(id="dataroom", kind="thing", pool="DATAROOMS", type="knowledge", topic="the data room",
                 q=["Which data room platform are we using for {client}?", "Where does {client} upload audit evidence?"],
                 say=["doc requests run through {v}", "{controller} uploads everything to {v}", "evidence goes into {v}", "data room: {v}", "{client} set us up on {v}",
                      "we're using {v} for document requests", "PBC uploads via {v}"]),
        ],
        facts=[("relationship", "{controller} is our counterpart at {client}, sharp, very process-heavy"),
               ("decision", "scope: revenue + procurement cycles only, payroll out this year"),
               ("event", "kickoff w/ {client} went fine {day}, they're nervous about inventory counts"),
               ("knowledge", "last year's audit had {few} findings, all in access mgmt"),
               ("plan", "interim review first, then year-end fieldwork"),
               ("preference", "findings come to me before they go anywhere near {client}"),
               ("relationship", "{associate} is on the engagement doing the walkthroughs"),
               ("knowledge", "{client} runs a slow close, books final about {few} working days after month end")],
        loops=[dict(acts=["send {client} the PBC list", "get the prepared-by-client list over to {controller}"],
                    opens=["{controller} keeps asking for the PBC list, I owe it"],
                    done=["{controller} has the PBC list, due dates agreed", "PBC request list acknowledged by {client}"]),
               dict(acts=["get the trial balance from {controller}", "chase the TB from {client}"],
                    opens=["blocker: no trial balance from {client} yet", "TB from {controller}: still outstanding"],
                    done=["auditors have the trial balance, ties to the ledger", "TB received and reconciled"]),
               dict(acts=["book travel for fieldwork", "sort hotel + train for fieldwork week"],
                    opens=["fieldwork travel: unbooked, mine to sort"],
                    done=["hotel + trains booked for fieldwork", "travel locked for the site week"]),
               dict(acts=["draft the management letter", "write up the mgmt letter points"],
                    opens=["mgmt letter: nobody's started it and it's mine"],
                    done=["mgmt letter draft is with {auditor} for review", "management letter in first draft, {few} points"])],
        asks=[("how do I phrase a finding so the client doesn't get defensive?",
               "Stick to condition, criteria, cause and effect, keep the language neutral, credit what works, and "
               "pair each point with a practical recommendation they helped shape."),
              ("what goes into a good PBC list?",
               "Each item with a clear description, the period it covers, the owner on the client side, a due "
               "date, and the format you want - plus a status column both sides can update."),
              ("audit season = no sleep", "It's a brutal stretch. Blocking a hard stop in the evenings, even "
               "a couple of nights a week, helps more than it sounds.")],
        maybe=["if they fail the inventory count we'd have to extend fieldwork, hope not",
               "sometimes I wonder if anyone reads management letters",
               "did we ever get a reply on last year's access findings? no idea"],
    ),
    dict(
        name="sales kickoff", short=["SKO", "the kickoff", "SKO planning", "the sales kickoff"],
        ents=dict(cro="PEOPLE", events_lead="PEOPLE", agency="EVENT_AGENCIES", enablement="PEOPLE"),
        slots=[
            dict(id="sko_venue", kind="place", pool="SKO_VENUES", type="plan", topic="the SKO venue",
                 q=["Where's SKO this year?", "Where is the sales kickoff being held?", "What venue did we book for SKO?"],
                 say=["SKO location → {v}", "contract with {v} signed for the kickoff", "SKO venue: {v}", "we're doing SKO at {v}", "{v} signed for the kickoff", "kickoff at {v}",
                      "{agency} shortlisted a few and we picked {v}"]),
            dict(id="sko_date", kind="date", type="plan", topic="the SKO start date",
                 q=["When is the sales kickoff?", "What date does SKO start?"],
                 say=["SKO starts {v}", "kickoff lands on {v}", "SKO kicks off {v}", "kickoff date → {v}", "reps fly in for {v}", "SKO opening day is {v}",
                      "we're locking {v} for the kickoff"]),
            dict(id="attendees", kind="number", num=(80, 450), fmt=["{} attendees", "{} people"], type="knowledge",
                 topic="the SKO headcount",
                 q=["What's the SKO attendance looking like?", "What's the attendee count for the kickoff?"],
                 say=["SKO registrations: {v}", "catering sized for {v}", "registrations at {v}", "headcount → {v}", "we're planning for {v}", "SKO: {v} confirmed",
                      "{cro} expects {v}"]),
            dict(id="keynote", kind="name", pool="PEOPLE", type="relationship", topic="the SKO keynote speaker",
                 q=["Who's on the main stage for the SKO keynote?", "Who's giving the keynote at SKO?", "Who is the opening keynote for the kickoff?"],
                 say=["{v} headlines the opening session", "main-stage keynote: {v}", "{v} does the keynote", "keynote → {v}", "opening slot goes to {v}",
                      "{v} confirmed for the main stage", "we've got {v} keynoting"]),
            dict(id="theme", kind="thing", pool="SKO_THEMES", type="decision", topic="the SKO theme",
                 q=["What's the theme for this year's SKO?", "What did we pick as the kickoff theme?"],
                 say=['banner + slides say "{v}"', 'the SKO tagline is "{v}"', "theme: \"{v}\"", "SKO theme → \"{v}\"", "we're branding it \"{v}\"",
                      "{cro} loves \"{v}\" as the theme", "going with \"{v}\" on all the swag"]),
        ],
        facts=[("relationship", "{cro} wants SKO to feel like a launch, not a training day"),
               ("decision", "awards dinner on the opening night, not the last night"),
               ("relationship", "{events_lead} runs logistics, {agency} on production"),
               ("knowledge", "last SKO about {n}% of reps skipped the afternoon breakouts"),
               ("plan", "breakouts by segment: enterprise, mid-market, partners"),
               ("preference", "no motivational speaker who climbed a mountain, please"),
               ("event", "{cro} approved the comp plan reveal for SKO on {day}"),
               ("relationship", "{enablement} owns the enablement track + certification")],
        loops=[dict(acts=["send the save-the-date to all reps", "get the save-the-date out"],
                    opens=["reps still don't have a save-the-date, that's on me"],
                    done=["save-the-date is in every rep's calendar", "calendar holds went out org-wide"]),
               dict(acts=["finalise the run-of-show with {agency}", "lock the run of show with {agency}"],
                    opens=["run of show: tbd, owner me"],
                    done=["{agency} has the final running order", "run-of-show frozen, v-final shared"]),
               dict(acts=["confirm AV requirements with the venue", "send the AV spec to the venue"],
                    opens=["AV spec for the venue: pending, owner = me"],
                    done=["AV spec accepted by the venue", "venue confirmed AV, mics + screens covered"]),
               dict(acts=["get the awards shortlist from {cro}", "chase {cro} for award winners"],
                    opens=["still waiting on {cro} for the awards shortlist"],
                    done=["awards shortlist in hand, trophies ordered", "{cro} sent the winners, engraving underway"])],
        asks=[("how do you keep energy up in afternoon sessions?",
               "Short blocks, movement between sessions, interactive formats like deal clinics instead of lectures, "
               "and good snacks with less sugar crash."),
              ("ideas for an SKO opener that isn't cheesy?",
               "A quick win-story montage from reps' own deals, a live poll on the biggest objection they hear, or a "
               "customer joining on stage for a few minutes."),
              ("a rep asked if partners can come, I said no, harsh?", "Not harsh - it's a working event with "
               "internal numbers. A short note explaining why usually lands fine.")],
        maybe=["if we did SKO virtual we'd save a fortune, but {cro} would riot",
               "wonder if anyone remembers last year's theme",
               "could do a hackathon-style deal clinic someday, who knows"],
    ),
    dict(
        name="tax and finances", short=["my taxes", "my tax filing", "money stuff", "personal finance"],
        ents=dict(advisor="PEOPLE", bank="BANKS"),
        slots=[
            dict(id="filing_deadline", kind="date", type="plan", topic="my tax filing deadline",
                 q=["By when do I have to file my taxes?", "When is my tax return due?", "What's my filing deadline this year?"],
                 say=["deadline for the return → {v}", "return must reach the tax office by {v}", "return due {v}", "tax office cutoff → {v}", "tax office wants it by {v}",
                      "my return has to be in by {v}", "{v} is the cutoff for filing"]),
            dict(id="preparer", kind="name", pool="TAX_FIRMS", type="relationship", topic="my tax preparer",
                 q=["Who's my accountant this year?", "Who's doing my tax return?", "Which firm prepares my taxes?"],
                 say=["my accountant this year: {v}", "return sits with {v}", "{v} is doing my return", "tax prep → {v}", "signed the engagement letter with {v}",
                      "using {v} for taxes this year", "{v} handles the filing"]),
            dict(id="pension", kind="number", num=(10, 25), fmt=["{}%", "{} percent"], type="decision",
                 topic="my pension contribution",
                 q=["What percentage of my salary goes to my pension?", "How much am I putting into my pension?", "What's my pension contribution rate?"],
                 say=["pension deduction set to {v}", "payroll takes {v} for the pension", "pension contribution: {v} of gross", "setting the pension to {v}", "putting {v} into the pension",
                      "{v} of salary goes to the pension", "pension → {v}"]),
            dict(id="refund", kind="number", num=(450, 3900), fmt=["€{:,}", "{:,} euros"], type="knowledge",
                 topic="my expected refund",
                 q=["How much am I expecting back from the tax office?", "How big is my tax refund expected to be?", "What refund am I getting back?"],
                 say=["refund should be around {v}", "tax office owes me roughly {v}", "refund estimate: {v}", "{v} coming back from the tax office", "accountant reckons a {v} refund",
                      "expecting {v} back", "projected refund → {v}"]),
            dict(id="fund", kind="thing", pool="INDEX_FUNDS", type="decision", topic="my monthly investment",
                 q=["Where does my monthly savings plan invest?", "What am I investing in every month?", "Which fund is my monthly savings plan in?"],
                 say=["monthly debit buys {v}", "{bank} app: auto-buy of {v} every month", "monthly plan goes into {v}", "savings plan → {v}", "auto-invest into {v} from now on",
                      "{advisor} set me up in {v}", "buying {v} every month"]),
        ],
        facts=[("identity", "side income from advisory work this year, so tax is messier"),
               ("decision", "switching to quarterly prepayments, no more big bill in spring"),
               ("relationship", "{advisor} at {bank} handles my investments"),
               ("preference", "low-risk only, I don't want to watch charts"),
               ("knowledge", "home-office deduction: about {n} square metres counts"),
               ("event", "annual statement from {bank} arrived {day}"),
               ("plan", "goal: emergency fund covering half a year of expenses"),
               ("decision", "closing the old savings account, the rate is terrible")],
        loops=[dict(acts=["upload receipts to the accountant portal", "get all deductible receipts scanned + uploaded"],
                    opens=["receipts: shoebox status, nothing uploaded"],
                    done=["receipts scanned, all in the portal", "portal has every receipt now"]),
               dict(acts=["book a review call with {advisor}", "set up the annual review with {advisor}"],
                    opens=["overdue: annual review with {advisor}, I keep not booking it"],
                    done=["review with {advisor} is in the calendar", "{advisor} call locked for {day}"]),
               dict(acts=["pay the quarterly tax prepayment", "transfer the prepayment to the tax office"],
                    opens=["prepayment still unpaid, due soon"],
                    done=["prepayment went through, confirmation saved", "tax office has the money, receipt filed"]),
               dict(acts=["sign the pension contribution form", "return the pension form to HR"],
                    opens=["HR is waiting on my signed pension form"],
                    done=["pension form signed and with HR", "HR confirmed the new rate is set up in payroll"])],
        asks=[("ballpark: how big should an emergency fund be?",
               "Typical guidance: a quarter to half a year of essential expenses, more if income is irregular "
               "or you're the sole earner."),
              ("deduction vs credit, what's the difference again?",
               "A deduction lowers the income you're taxed on; a credit comes straight off the tax bill itself, so "
               "a credit of the same size is usually worth more."),
              ("hate doing taxes, every year the same pain", "Totally fair. A running folder where receipts land "
               "through the year makes the spring scramble much shorter.")],
        maybe=["if I'd started the pension earlier I'd be sitting pretty, oh well",
               "wonder if crypto is worth a small punt, probably not",
               "did I ever file that amended return back then? can't remember"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "correction: {say}, not {old}", (), "any"),
    ("explicit", "correcting myself on {topic} → {v}", (), "any"),
    ("explicit", "pls fix {topic} in your notes: {v}", (), "any"),
    ("explicit", "{Say}, not {old} — per the latest thread", (), "any"),
    ("actually", "ah actually — {say}", (), "any"),
    ("actually", "hm, actually it's {v}, had {old} in my head", (), "same"),
    ("actually", "{v} actually. not {old}", (), "any"),
    ("misspoke", "typo'd that earlier: {say}", (), "any"),
    ("misspoke", "wrong figure from me before — {say}", ("number",), "same"),
    ("misspoke", "misspoke re {topic}: {v}, not {old}", (), "any"),
    ("change", "plan changed → {say}", (), "later"),
    ("change", "pivot on {topic}: {v} instead of {old}", (), "later"),
    ("change", "new plan — {say}", (), "later"),
    ("moved", "{topic} moved → {v}", ("date", "place"), "later"),
    ("moved", "heads up, {topic} slipped to {v}", ("date",), "later"),
    ("moved", "{topic} got relocated to {v}", ("place",), "later"),
    ("moved", "we bumped {topic} to {v}, {old} no longer works", ("date",), "later"),
    ("is-now", "fyi {topic} now {v}", (), "later"),
    ("is-now", "{Topic}: {v} now (was {old})", (), "later"),
    ("scratch", "scratch {old}, {say}", (), "same"),
    ("scratch", "strike what I said on {topic} — {say}", (), "any"),
    ("scratch", "ignore my last on {topic}. {Say}", (), "same"),
    ("implicit", "{Say}", (), "later"),
    ("implicit", "post-sync: {say}", (), "later"),
    ("implicit", "{Say} — confirmed on the call just now", (), "later"),
    ("implicit", "heard back. {say}", (), "later"),
    ("updated", "revised: {say}", (), "later"),
    ("updated", "update on {topic}: {old} → {v}", (), "later"),
    ("updated", "upd — {say}", (), "later"),
]

LOOP_OPEN = ["AI on me: {act} {due}", "owner: me — {act} {due}", "{act} {due}, that's mine", "action item for me: {act}",
             "committed: {act} {due}", "tbd: {act} (me) {due}", "ping me {due} to {act}", "nudge me re: {act}",
             "on my plate: {act}", "my AI from the sync: {act} {due}", "will {act} {due}",
             "signed up to {act} {due}, hold me to it", "told the team I'd {act} {due}",
             "parking this with me: {act}", "open item (mine): {act}", "still outstanding on my side: {act}",
             "reminder needed: {act} {due}", "me → {act} {due}", "can't drop this: {act} {due}",
             "track for me: {act}", "{act} — owner me",
             "haven't managed to {act} yet, {due} latest", "owe the team this: {act} {due}",
             "blocked on me: {act}", "cal block {due} to {act}", "still need to {act}, slipping"]
DUES = ["by COB", "EOD", "by EOW", "before Thursday's sync", "Mon AM", "by Friday noon", "within the wk",
        "ASAP", "by COB Wednesday", "end of next week", "before the next steerco", "tomorrow AM"]

ACK = ["Logged.", "Copy that.", "Noted on my side.", "Clear.", "Got that down.", "Understood - anything else?",
       "Roger.", "Captured.", "Thanks, filed away.", "Makes sense, noted."]
ACK_VALUE = ["Captured: {topic} = {v}.", "{v} for {topic}, noted.", "On file: {topic} is {v}.", "Right - {topic}: {v}."]
ACK_CHANGE = ["Swapped {old} for {v} on {topic}.", "Updated - {topic} now {v}.", "{old} is out, {v} is in.",
              "Fixed: {v} (was {old})."]
ACK_TODO = ["On the tracker.", "On your open items now.", "Logged as an action item for you.", "I'll hold you to it."]
ACK_DONE = ["Closed out.", "Ticked off.", "Marking that as closed.", "Nice - off the open list."]

OPENERS = ["quick q", "morning - {short}", "circling back on {short}", "got a sec between calls", "re {short}",
           "hi", "back. {short}", "evening, catching up", "couple of things re {short}", "so - {short}", "yo",
           "sorry, frantic day", "brain dump incoming", "between meetings, quick"]
GREETINGS = ["Hi {me} - go.", "Listening - what's on deck?", "Morning {me}, shoot.", "Ready, {me}.",
             "Go ahead, listening.", "Hey {me}, what's first?"]
CLOSERS = ["that's all, ty", "ok off to next call", "cheers, done for now", "perfect, later", "good, signing off",
           "thx, ttyl"]
GOODBYES = ["Good luck with the next call.", "Later, {me}.", "Any time - ping me.", "Go get 'em.", "Speak soon."]
FILLERS = [("k", "Sure."), ("sec", "No hurry."), ("brb", "Standing by."), ("ugh, call ran over", "No worries, still here."),
           ("ha", "🙂"), ("👍", "👍"), ("lost my thread", "You were on {short}."), ("ty", "Any time."),
           ("hold on, fire drill", "I'll be here.")]
RECAP_ASKS = ["status on {short}?", "tl;dr {short}?", "where are we, bullet form", "sum up {short} for me"]
RECAP_TODO = ["Action list: {todo}", "Still pending: {todo}", "Outstanding on your side: {todo}"]
RECAP = ["Snapshot of {short}: {body}.", "Where it stands - {body}.", "TL;DR: {body}.", "Current picture: {body}."]
LEADS = ["re {short}: ", "{short} update — ", "FWIW ", "fresh intel on {short}: ", "quick note: ", "for the file: "]
LOWER_OK = (r"(?:The|Our|We|We're|New|Owner|Action|Gotta|Committed|Tbd|Nudge|Ping|On|Signed|Told|Parking|Open|Still|Reminder|"
            r"Track|Blocker|Pending|Need|Renewal|Annual|Discount|Sign-by|Hard|Notice|Contract|Going|Support|"
            r"Landing|Move|Movers|Moving|Floor|Desk|Rent|Monthly|Lease|Space|Board|Next|Directors|Quarterly|"
            r"Location|Main|Deck's|Capping|Revenue|Topline|Headline|Big-ticket|Fieldwork|Team|Sample|Testing|"
            r"Sampling|Site|Engagement|Lead|Evidence|Data|Kickoff|Reps|Registrations|Headcount|Keynote|Opening|"
            r"Theme|Return|Filing|Tax|My|Pension|Setting|Putting|Refund|Accountant|Expecting|Projected|Savings|"
            r"Auto-invest|Buying|Correction|Correcting|Pls|Ah|Hm|Typo'd|Wrong|Misspoke|Plan|Pivot|Heads|Fyi|"
            r"Scratch|Strike|Ignore|Post-sync|Heard|Revised|Update|Upd|Redlines|Dropping|Usage|Hot-desking|"
            r"Site|Bike|Last|Closed|Appendix|Pre-read|Scope|Kickoff|Interim|Findings|Awards|Breakouts|No|"
            r"Side|Switching|Low-risk|Home-office|Goal|Closing|Receipts|Prepayment|Mgmt|Will|Can't|Me|Re|Quick|"
            r"For|News|Spend|Utilisation|Revised|Goods|Building|Everyone|Badges|Access|Old|Dinner|Table|Numbers|"
            r"Hotel|Travel|Management|Save-the-date|Calendar|Run-of-show|Run|Venue|Portal|Review|Haven't|Owe|"
            r"Blocked|Cal|Seat|Overdue|Deck|Pack|Agenda|Base|Doc|Catering|Banner|Main-stage|Deadline|Payroll|"
            r"Fit-out|Headline|Keys|Sig|Off-list|Net|Address|Signing|Signatures|Quarter|Refund|Moving)\b")
JOINERS = [" Also: ", " + ", " Plus: ", " Unrelated: ", " Side note: ", " PS "]

PERSONAL = [("identity", "I'm a principal consultant at {employer}"),
            ("identity", "based in {city}, commute by train most days"),
            ("relationship", "partner {partner} runs a bakery, up before dawn"),
            ("relationship", "cousin {cousin} is staying with us for a few weeks"),
            ("preference", "bullets > paragraphs, always"),
            ("preference", "no calls before my first coffee, hard rule"),
            ("relationship", "dog {pet} gets a lunchtime walk, non-negotiable"),
            ("preference", "flat white, oat milk, in case you ever wonder"),
            ("identity", "MBA ages ago, engineering degree before that"),
            ("event", "back from a long weekend in the mountains with {partner}"),
            ("preference", "gluten-free fyi, for any dinner recs")]

CHITCHAT = [("airport lounge wifi is a crime", "Tethering off your phone is often faster than lounge wifi - worth a "
             "try next time."),
            ("how do people survive back-to-back calls all day?", "Short buffers between calls, water on the desk, "
             "and standing for at least some of them help a surprising amount."),
            ("recommend an audiobook for the train", "A well-narrated biography or a gripping nonfiction piece works "
             "well for commutes - easy to pick up and put down."),
            ("every meeting is running long this week", "Try ending with a hard stop in the invite and a "
             "'decisions + owners' minute at the close - it shortens things."),
            ("lunch ideas I can eat at my desk without making a mess?", "Grain bowls, wraps cut in half, or a thermos "
             "of soup - all low-crumb and fork-friendly."),
            ("why does my laptop fan sound like a jet", "Usually a browser tab or background sync chewing CPU; dust "
             "in the vents can make it louder too."),
            ("tell me something interesting, need a break", "Honeybees communicate where food is with a 'waggle "
             "dance' - the angle points relative to the sun."),
            ("standing desk: worth it?", "For many people yes, mainly for switching positions through the day - "
             "standing all day isn't the goal."),
            ("how does anyone actually keep an empty inbox", "Mostly by batching: a couple of set times a day, and "
             "turning every email into reply, delegate, schedule or archive."),
            ("rained sideways on my bike commute", "Brutal. Waterproof trousers and spare socks at the office "
             "change everything."),
            ("good gift for a colleague who's leaving?", "Something personal beats something pricey: a card everyone "
             "signs plus a book or a nice plant usually lands well."),
            ("can't focus today at all", "Pick the smallest useful task, set a short timer, and close everything "
             "else. Momentum tends to follow."),
            ("best way to pick up some basic Danish?", "A daily app session for vocabulary plus Danish podcasts "
             "for listening - the pronunciation takes ear training."),
            ("board game ideas for a team evening?", "Codenames and Wavelength are great for groups and easy to "
             "learn; Dixit is good for mixed crowds too."),
            ("is it rude to keep the camera off on calls", "Depends on the team norm; a quick 'camera off today, "
             "bad connection' note usually smooths it over."),
            ("sauna after work beats everything", "Hard to argue. Cold shower after for the full experience."),
            ("trains delayed again, classic", "Frustrating. Maybe a good moment to knock out a few quick emails?"),
            ("need a weekend hobby that isn't screens", "Bouldering, pottery classes or cooking something ambitious "
             "- all very hands-on and absorbing."),
            ("how do I decline a meeting without being rude", "Thank them, say you can't add value this time, and "
             "offer to read the notes or send input async."),
            ("desk plant ideas that survive neglect?", "Snake plants, ZZ plants and pothos tolerate low light and "
             "forgotten waterings really well.")]
REQUESTS = [("draft a note to {stranger} at {org}: can't do {day}, propose a {n}-min call instead",
             "Here you go:\n\nHi {stranger},\n\n{day} won't work on my end, sorry. Could we do a quick {n}-minute "
             "call instead? Flexible on timing.\n\nThanks,\n{me}"),
            ("tl;dr this pls: '{org} logged {big} late shipments last quarter; {stranger} wants {n} extra drivers'",
             "{org}: {big} late shipments last quarter. {stranger} proposes adding {n} drivers."),
            ("name ideas for a coffee cart run by {stranger}",
             "Some options: {stranger}'s Grind, Cart Blanche, Roam Roast, The Daily Pour, Bean There."),
            ("haiku about a printer jam", "Paper folds and stops / a red light blinks its complaint / the deadline "
             "creeps in"),
            ("fix grammar: '{stranger}, pls find attach the {n} invoices from {day}'",
             "'{stranger}, please find attached the {n} invoices from {day}.' - 'attach' becomes 'attached', and "
             "'pls' is spelled out."),
            ("reply to {stranger}, asking for a €{big} refund on a cancelled workshop",
             "Hi {stranger}, sorry the workshop was cancelled. I've arranged a refund of €{big}; expect it "
             "on your account in a few business days."),
            ("Dutch for 'my train is running {n} minutes late'?", "'Mijn trein heeft {n} minuten "
             "vertraging.'"),
            ("soften this: '{stranger}, your invoice to {org} is {few} weeks overdue'",
             "'Hi {stranger}, a friendly nudge that the invoice to {org} is now {few} weeks past due - could you "
             "check on it when you have a moment?'"),
            ("packing list for a {few}-day work trip, carry-on only",
             "Laptop + charger, adapter, {few} shirts, a blazer that travels well, a pair of smart shoes, "
             "toiletries in a clear bag, and a light layer for the plane."),
            ("explain EBITDA like I'm not a finance person",
             "It's the profit a business makes from running itself, before interest, tax, and the accounting "
             "write-downs for wear on equipment and intangibles - a rough view of operating earnings."),
            ("LinkedIn blurb: {stranger} from {org} joins us as an advisor",
             "Thrilled to welcome {stranger} of {org} as an advisor. Looking forward to the experience and "
             "perspective {stranger} brings to the team!")]
DISTRACTORS = ["if I answered every email I'd never leave the inbox",
               "someone should really fix the meeting room booking system, not me though",
               "expenses from the last trip got reimbursed weeks ago",
               "in theory I'd do a weekly review every Friday, in practice lol",
               "someday I'll learn to say no to meetings",
               "{stranger} might handle the catering, their call",
               "which note-taking app does {org} use again?",
               "could block focus time on {day}s, but who am I kidding",
               "the team could probably run the retro without me",
               "should I be learning Python at my age? genuinely asking"]
UNSURE = ["Not something you've told me.", "No record of that on my side.",
          "Haven't got that - you never mentioned it.", "Drawing a blank, sorry; it hasn't come up."]
SHRUG = ["Point taken.", "Ha, same here.", "No argument here.", "Totally reasonable.", "Yep, that tracks."]
SUGGEST = [("anything I'm missing?", "Maybe a short check-in with the stakeholders before {day} - could save a "
            "surprise later."),
           ("your take?", "I'd lean toward writing the decision down and circulating it, but your call."),
           ("what would you prioritise?", "If it were my week, I'd protect a couple of hours on {day} for the heavy "
            "stuff."),
           ("other options?", "A shared tracker with owners and dates might stop things slipping; happy to sketch it.")]
