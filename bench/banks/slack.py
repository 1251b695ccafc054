"""Phrase bank 'slack': a user who writes like they're on workplace chat - clipped, lowercase, shorthand
(fyi, eod, ooo, lmk, ack, +1, wfh), arrows and slashes, emoji as :codes:, the odd typo. Written from the
README and dev.py only; its people, threads and phrasings are its own. Placeholders as in dev.py."""

NAME = "slack"

USERS = ["Ifeoma Nwachukwu", "Mateusz Wróbel", "Thandiwe Khumalo", "Rasmus Eklund", "Yuki Morimoto",
         "Farida Haddad", "Joaquín Salas", "Ilse Vermeulen", "Tuan Pham", "Saoirse Kavanagh", "Anahí Quispe",
         "Kalani Akana", "Bilal Qureshi", "Marit Solberg", "Emeka Obiora", "Dragana Petrović"]

PEOPLE = ["Kourosh", "Radomir", "Golnaz", "Teodor", "Tadhgan", "Sunniva", "Beto", "Chidubem", "Ottilie", "Paavo",
          "Xiomara", "Dariusz", "Wanjiru", "Hamid", "Sigrún", "Thabo", "Mireille", "Eskil", "Yaw", "Fumiko",
          "Ludovic", "Zainab", "Bogdan", "Itzel", "Sione", "Rosalind", "Tawfiq", "Ksenia", "Ignacio", "Sadbh",
          "Dembe", "Halvard", "Leilani", "Nilufar", "Gideon", "Rukmini", "Santeri", "Folake", "Erdem", "Jiho",
          "Vesna", "Caetano", "Ondine", "Taavi", "Amaru", "Liesl", "Kobina"]
STRANGERS = ["Mr. Oduya", "Delia Fairbanks", "Dr. Ramaswamy", "Conrad Velle", "Ms. Achterberg", "Maud Erskine",
             "Ingo Falkner", "Mrs. Abiodun", "Seamus Tolliver", "Ximena Duarte", "Barnaby Kreutz", "Odalys Ferrer"]
ORGS = ["Tallgrass Credit Union", "Vireo Telecom", "Blackthorn Couriers", "Ostara Dental Group", "Kelpie Insurance",
        "Marrow & Finch Accountants", "Greywater Utilities", "Pennyroyal Leasing", "Quayside Fitness"]
PROCESSORS = ["Payvane", "Tenderloop", "Brimpay", "Settla", "Ordello", "Coinwick", "Zestpay"]
AUDITORS = ["Harrowgate & Pell", "Strand Assurance", "Keel Audit Partners", "Mossgiel CPAs", "Brackwater LLP"]
GRC_TOOLS = ["Vantara", "Compliq", "Trustcase", "Evidentia", "Sealstack", "Attestly"]
BUILDINGS = ["Alder Exchange", "Quarry Point", "Tannery Yard", "Linwood Court", "Foxglove Works", "Saltire Yards"]
MOVERS = ["Crateline Haulage", "Hauldane Removals", "Boxwell Relocation", "Packrat Shifters", "Ferrybridge Movers"]
NEIGHBORHOODS = ["Ashgrove", "Kettle Hill", "Millrace", "Larchmont Flats", "Eastwharf", "Bellhaven", "Cinder Park"]
WEDDING_SPOTS = ["Sorrel Creek Vineyard", "Harrow Mill Barn", "Wrenfield Estate", "Lanternfish Boathouse",
                 "Calloway Orchard", "Bluestem Ranch"]
OUTFITS = ["sage linen", "midnight velvet", "rust corduroy", "charcoal tweed", "ivory seersucker", "plum satin"]
SPORTIVES = ["Marlstone Gran Fondo", "Ironbridge Century", "Coldharbour Classic", "Fellside Fondo", "Wyvern Ride",
             "Granite Loop Sportive"]
BIKES = ["Corvid SL", "Hallen Aero", "Talon Gravel", "Skiff Endurance", "Merrow Ti"]
HACK_THEMES = ["ticket deflection", "zero-click onboarding", "dark data cleanup", "accessibility wins",
               "latency hunting", "self-writing docs"]
HOMECITIES = ["Szczecin", "Accra", "Maputo", "Tromsø", "Oaxaca", "Hobart"]
EMPLOYERS = ["Fernhollow Software", "Quantrix Labs", "Brambleway", "Tidewell Systems"]
PETS = ["Pistachio", "Kumquat", "Marmalade", "Gizmo", "Bao"]

PERSONAL_ENTS = dict(partner="PEOPLE", bro="PEOPLE", city="HOMECITIES", employer="EMPLOYERS", pet="PETS")

THREADS = [
    dict(
        name="payments cutover", short=["the cutover", "the {psp} migration", "payments migration", "billing cutover"],
        ents=dict(psp="PROCESSORS", finlead="PEOPLE", vendoram="PEOPLE", sre="PEOPLE"),
        slots=[
            dict(id="psp_golive", kind="date", type="plan", topic="the cutover date",
                 q=["When do we switch billing over to {psp}?", "What's the go-live date for the {psp} cutover?"],
                 say=["cutover to {psp} is locked for {v}", "we flip billing to {psp} on {v}",
                      "go-live for the {psp} switch = {v}", "target for cutover: {v}, assuming nothing explodes",
                      "{psp} go live -> {v}"]),
            dict(id="psp_rate", kind="number", num=(14, 60), fmt=["{} bps", "{} basis points"], type="decision",
                 topic="our {psp} rate",
                 q=["What per-transaction rate did we negotiate with {psp}?", "What's our fee with {psp}?"],
                 say=["negotiated {psp} down to {v} per txn", "final rate w/ {psp} is {v}",
                      "{psp} agreed to {v}, finance is happy-ish", "rate came in at {v} on the {psp} contract"]),
            dict(id="freeze_len", kind="number", num=(12, 48), fmt=["{} hours", "{} hrs"], type="plan",
                 topic="the code freeze around cutover",
                 q=["How long is the code freeze around the cutover?", "How many hours of freeze do we have for the cutover?"],
                 say=["code freeze around cutover is {v}", "we're freezing deploys for {v} around the switch",
                      "freeze window = {v}, no exceptions"]),
            dict(id="cutover_ic", kind="name", pool="PEOPLE", type="relationship", topic="the cutover IC",
                 q=["Who's incident commander for the cutover?", "Who is running the cutover call?"],
                 say=["{v} is IC for the cutover", "{v} is running the bridge on cutover night",
                      "IC on cutover night -> {v}"]),
            dict(id="fallback_psp", kind="name", pool="PROCESSORS", type="decision", topic="the backup processor",
                 q=["Which processor is our fallback if {psp} goes down?", "What's the backup payment provider?"],
                 say=["fallback processor is {v} if {psp} falls over", "we're keeping {v} warm as backup",
                      "backup provider stays {v} for now"]),
        ],
        facts=[("decision", "we're dual-running {psp} and the legacy gateway for a couple wks before we kill the old one"),
               ("relationship", "{vendoram} is our AM at {psp}, super responsive on slack connect"),
               ("event", "dry run on {day} went mostly ok, a handful of webhooks got dropped"),
               ("knowledge", "{psp} settles T+2 so finance will see a weird gap the first wk"),
               ("plan", "merchant comms go out a wk ahead of the switch"),
               ("preference", "i will die on this hill: we do not cut over on a friday"),
               ("relationship", "{finlead} from finance has to bless the recon numbers"),
               ("decision", "v1 of the migration is cards only, wallets come later"),
               ("knowledge", "refunds api on {psp} is rate limited to ~{n} req/s, which is annoying"),
               ("relationship", "{sre} is on point for the dns + firewall bits")],
        loops=[dict(acts=["fill out the security questionnaire from {psp}", "action {psp}'s vendor security questionnaire"],
                    opens=["{psp}'s security questionnaire is sitting on my plate untouched :grimacing:"],
                    done=["security questionnaire sent back to {psp}", "{psp} questionnaire is in, {vendoram} confirmed they got it"]),
               dict(acts=["get {finlead}'s sign-off on the recon report", "chase {finlead} to approve recon"],
                    opens=["blocked on {finlead} signing off recon before we can go"],
                    done=["{finlead} approved recon this am", "recon is signed off, {finlead} had no notes"]),
               dict(acts=["rotate the webhook signing secret", "swap the webhook secret before go-live"],
                    done=["webhook secret rotated, old one revoked", "new signing secret is live in prod"]),
               dict(acts=["write the merchant FAQ", "draft the faq page for merchants"],
                    done=["merchant faq is up on the help centre", "faq published, {n} ppl viewed it already lol"])],
        asks=[("whats a sane rollback plan when swapping payment providers?",
               "Keep the old gateway configured and able to take traffic behind a flag, route a small slice of "
               "payments first, and decide in advance which error rate makes you flip back."),
              ("how do ppl usually handle stored card tokens in a migration like this?",
               "Usually the old provider exports the card data directly to the new one under a PCI-compliant "
               "transfer, so the raw numbers never touch your systems; you then map old tokens to new ones."),
              ("my brain is just webhooks at this point :sweat_smile:", "That sounds draining. Want me to help "
               "list which ones still need testing so it feels less endless?")],
        maybe=["if finance had looped us in earlier we wouldnt be scrambling like this",
               "in a dream world we'd also move invoicing over in the same go, lol no",
               "whats the url for the old gateway admin again?"],
    ),
    dict(
        name="soc2 audit", short=["the soc2 thing", "soc2", "compliance prep", "the {auditor} audit"],
        ents=dict(auditor="AUDITORS", ciso="PEOPLE", itadmin="PEOPLE"),
        slots=[
            dict(id="fieldwork_start", kind="date", type="plan", topic="audit fieldwork",
                 q=["When does audit fieldwork start?", "When are the auditors starting fieldwork?"],
                 say=["fieldwork kicks off {v}", "{auditor} starts fieldwork on {v}", "auditors are in from {v}",
                      "fieldwork start -> {v}"]),
            dict(id="ctrl_count", kind="number", num=(42, 130), fmt=["{} controls", "{}"], type="knowledge",
                 topic="the controls in scope",
                 q=["How many controls are in scope for the audit?", "What's the control count for soc2?"],
                 say=["we've got {v} in scope", "scope landed at {v}", "control count is {v} after the scoping call"]),
            dict(id="grc_tool", kind="thing", pool="GRC_TOOLS", type="decision", topic="the evidence tool",
                 q=["Which tool are we collecting audit evidence in?", "What compliance platform did we pick?"],
                 say=["we're going with {v} for evidence collection", "evidence lives in {v}",
                      "signed w/ {v} as the grc tool"]),
            dict(id="audit_fee", kind="number", num=(18, 65), fmt=["${}k", "${},000"], type="decision",
                 topic="the audit fee",
                 q=["How much is the audit costing us?", "What's {auditor} charging for the audit?"],
                 say=["{auditor} quoted {v} for the whole thing", "audit fee is {v}",
                      "we're paying {v} for the audit, ouch"]),
            dict(id="evidence_owner", kind="name", pool="PEOPLE", type="relationship", topic="the evidence owner",
                 q=["Who owns evidence collection for the audit?", "Who's wrangling audit evidence?"],
                 say=["{v} owns evidence collection", "{v} is wrangling the evidence requests",
                      "evidence requests route to {v}"]),
        ],
        facts=[("decision", "type 1 first, type 2 is a next-year problem"),
               ("relationship", "{ciso} is exec sponsor for the audit"),
               ("event", "pentest report came back {day}, a couple of mediums, nothing crit"),
               ("knowledge", "auditors want screenshots w/ timestamps visible, exports dont count"),
               ("plan", "all policy docs get finalised before fieldwork"),
               ("preference", "evidence goes in one shared folder pls, not scattered over six drives"),
               ("relationship", "{itadmin} owns the MDM rollout, which is like half our controls"),
               ("event", "kickoff call w/ {auditor} happened, they seem pretty chill tbh"),
               ("decision", "we're dropping the on-prem build server from scope")],
        loops=[dict(acts=["renew the wildcard TLS cert", "get the wildcard cert renewed"],
                    opens=["wildcard cert expires soon-ish and that one's mine"],
                    done=["cert renewed, good thru next yr now", "wildcard cert is renewed + deployed everywhere"]),
               dict(acts=["get {ciso} to sign the infosec policy", "chase {ciso} for a signature on the infosec policy"],
                    opens=["need {ciso}'s signature on the infosec policy b4 fieldwork"],
                    done=["{ciso} signed the infosec policy last night", "infosec policy has {ciso}'s signature on it now"]),
               dict(acts=["run the quarterly access review", "do the access review for this qtr"],
                    done=["access review finished, revoked {n} stale accounts", "access review wrapped, evidence uploaded"]),
               dict(acts=["finish the vendor inventory sheet", "wrap up the vendor inventory spreadsheet"],
                    done=["vendor inventory sheet is complete", "vendor list is fully filled in :tada:"])],
        asks=[("eli5 difference between soc2 type 1 and type 2?",
               "Type 1 checks that your controls are designed sensibly at a single point in time; type 2 checks "
               "that they actually operated over a period, usually several months."),
              ("what evidence do auditors usually ask for around onboarding/offboarding?",
               "Typically tickets or HR records showing access was granted with approval, and proof that accounts "
               "were removed promptly when someone left - often sampled from a list of joiners and leavers."),
              ("audit prep is the most soul draining work i've ever done", "It's a lot of repetitive admin. "
               "Batching similar requests together and tackling them in one sitting can make it less grim.")],
        maybe=["if we'd had a grc tool from day one this would be trivial",
               "someday i'd love to do iso 27001 too, but not this yr",
               "which drive did the old policy docs live on?"],
    ),
    dict(
        name="hq relocation", short=["the hq move", "relocation", "moving day logistics"],
        ents=dict(facilities="PEOPLE", landlordrep="PEOPLE"),
        slots=[
            dict(id="relocation_day", kind="date", type="plan", topic="the relocation date",
                 q=["What day does the HQ relocation happen?", "What day are we moving offices?"],
                 say=["move day is {v}", "movers come {v}", "we're out of the old office on {v}",
                      "office move locked -> {v}"]),
            dict(id="new_building", kind="place", pool="BUILDINGS", type="decision", topic="the new hq building",
                 q=["What building is the new HQ in?", "Where's the new office?"],
                 say=["hq is relocating to {v}", "lease signed at {v}", "new hq -> {v}"]),
            dict(id="desk_total", kind="number", num=(40, 140), fmt=["{} desks", "{}"], type="decision",
                 topic="how many desks we're ordering",
                 q=["How many desks are we getting in the new office?", "What's the desk count at the new place?"],
                 say=["we're ordering {v} for the new space", "desk count is {v}", "fitting {v} into the floorplan"]),
            dict(id="haulers", kind="name", pool="MOVERS", type="decision", topic="our movers",
                 q=["Which moving company did we book?", "Which crew is hauling our stuff?"],
                 say=["{v} got the moving contract", "{v} are doing the heavy lifting", "we went w/ {v}"]),
            dict(id="floor_no", kind="number", num=(11, 38), fmt=["floor {}", "level {}"], type="knowledge",
                 topic="our floor",
                 q=["Which floor is the new office on?", "What floor are we on in the new building?"],
                 say=["we're on {v}", "our space is {v}", "we got {v}, nice views apparently"]),
        ],
        facts=[("decision", "hot desking for everyone except support, they keep fixed seats"),
               ("knowledge", "building mgmt only lets us use the freight elevator after 6pm"),
               ("relationship", "{facilities} is running point on the move from the ops side"),
               ("event", "walked the new space {day}, kitchen is tiny lol"),
               ("plan", "whole company is wfh on move day"),
               ("preference", "i want my team by the windows not next to the loading dock"),
               ("relationship", "{landlordrep} is the landlord's rep and takes forever to reply"),
               ("knowledge", "parking over there is ~{n} bucks a day :grimacing:"),
               ("decision", "not bringing the old standing desks, we're selling them off")],
        loops=[dict(acts=["label all the team's equipment for the movers", "get stickers on everyone's kit before the move"],
                    done=["all our kit is labelled", "labelling done, took way longer than it shd have"]),
               dict(acts=["send the badge list to {facilities}", "get the names for new badges over to {facilities}"],
                    opens=["still owe {facilities} the list of names for badges"],
                    done=["{facilities} has the badge list", "badge list sent to {facilities} :white_check_mark:"]),
               dict(acts=["set up a sync with IT about networking at the new place", "book time w/ IT re the network move"],
                    done=["IT sync is on the calendar for {day}", "met w/ IT, network plan looks solid"]),
               dict(acts=["clear out my desk", "empty my desk drawers before the move"],
                    done=["desk cleared", "drawers are empty, found {few} dead usb sticks in there"])],
        asks=[("how do u keep ppl productive during an office move week?",
               "Have everyone work from home on the move day and the day after, freeze non-urgent meetings, and "
               "make sure laptops and chargers travel with their owners rather than in the crates."),
              ("is hot desking actually hated or is that just twitter",
               "Plenty of people dislike it, mostly because of setup friction and not having a home base; lockers, "
               "good monitors at every desk and team zones soften that a lot."),
              ("floorplan tetris is melting my brain", "Try grouping by who talks to whom most, then fit the "
               "groups - it's easier than placing desks one by one.")],
        maybe=["if we'd stayed remote-first we wouldnt be doing any of this",
               "in an ideal world we'd get a rooftop terrace, we won't",
               "was it the old lease or the new one that had the break clause?"],
    ),
    dict(
        name="apartment search", short=["the apt hunt", "flat hunting", "apartment stuff"],
        ents=dict(agent="PEOPLE", roomie="PEOPLE"),
        slots=[
            dict(id="rent_cap", kind="number", num=(1250, 1990), fmt=["${}", "${} a month"], type="decision",
                 topic="my max rent",
                 q=["What's my max rent for the new place?", "What's my rent ceiling?"],
                 say=["hard cap on rent is {v}", "not going above {v} for rent", "budget for the new place: {v}"]),
            dict(id="hood", kind="place", pool="NEIGHBORHOODS", type="preference", topic="the neighborhood",
                 q=["Which neighborhood am I looking in?", "Where am I trying to rent?"],
                 say=["focusing the search on {v}", "really want to be in {v}", "{v} is the target area"]),
            dict(id="movein", kind="date", type="plan", topic="move-in",
                 q=["When do I move into the new apartment?", "What's my move-in date?"],
                 say=["move in day -> {v}", "keys on {v}", "i get the place {v}"]),
            dict(id="rental_agent", kind="name", pool="PEOPLE", type="relationship", topic="my rental agent",
                 q=["Who is my rental agent?", "Which agent is helping me find a place?"],
                 say=["{v} is my agent for the search", "working w/ {v} as my agent", "agent is {v}, seems legit"]),
        ],
        facts=[("preference", "in-unit laundry is non negotiable"),
               ("decision", "no more walk-ups, my knees cant take it"),
               ("event", "saw a place {day} that smelled like soup, hard pass"),
               ("knowledge", "landlords round here want a ridiculous income multiple"),
               ("relationship", "{roomie} might move in w/ me, tbd"),
               ("plan", "lease on my current place ends end of next month so the clock is ticking"),
               ("identity", "been renting for like a decade, never owned anything"),
               ("preference", "would rather have a small place with light than a big dark one")],
        loops=[dict(acts=["send my rental application to {agent}", "get the rental app over to {agent}"],
                    done=["application is with {agent} now", "rental app submitted, fingers crossed"]),
               dict(acts=["give notice to my current landlord", "email my landlord my notice"],
                    opens=["havent given my landlord notice yet and that's becoming a problem"],
                    done=["notice given, landlord replied 'ok' lol", "landlord has my notice in writing"]),
               dict(acts=["get renters insurance quotes", "price out renters insurance"],
                    done=["picked a renters policy, cheap enough", "renters insurance sorted"])],
        asks=[("viewing tmrw, what do ppl forget to check?",
               "Water pressure and how long hot water takes, phone signal in each room, signs of damp behind "
               "furniture, and what the street sounds like at night."),
              ("is it normal to pay an agent fee here?", "It depends on the local rules - some places ban tenant "
               "fees entirely, others still allow them - so it's worth checking before you sign anything."),
              ("apartment hunting is a full time job on top of my full time job", "It really can be. Setting "
               "alerts and viewing in batches on one evening a week helps keep it contained.")],
        maybe=["if i won the lottery i'd just buy the building lol",
               "someday i want a place with a real garden",
               "what was that listing site with the good filters called?"],
    ),
    dict(
        name="wedding party duty", short=["the knot-tying weekend", "{sis}'s wedding", "bridal party admin"],
        ents=dict(sis="PEOPLE", groom="PEOPLE"),
        slots=[
            dict(id="sis_wedding_date", kind="date", type="event", topic="the date of {sis}'s wedding",
                 q=["When is {sis}'s wedding?", "What's the date of the wedding?"],
                 say=["{sis} and {groom} are getting married {v}", "wedding is {v}", "save the date says {v}"]),
            dict(id="wedding_spot", kind="place", pool="WEDDING_SPOTS", type="plan", topic="where {sis}'s wedding is",
                 q=["Where is {sis}'s wedding being held?", "What's the wedding venue?"],
                 say=["they booked {v}", "wedding's at {v}", "venue is {v}, very instagram"]),
            dict(id="toast_len", kind="number", num=(11, 25), fmt=["{} minutes"], type="plan",
                 topic="my toast slot",
                 q=["How long is my toast supposed to be?", "How much time do I get for the toast?"],
                 say=["{sis} gave me {v} for the toast", "toast slot is {v}", "i have {v} max for the speech"]),
            dict(id="gift_cap", kind="number", num=(150, 600), fmt=["${}"], type="decision", topic="my gift budget",
                 q=["How much am I spending on the wedding gift?", "What's my budget for the gift?"],
                 say=["gift budget is {v}", "spending {v} on the gift, not a cent more", "capping the gift at {v}"]),
            dict(id="outfit", kind="thing", pool="OUTFITS", type="preference", topic="my outfit",
                 q=["What am I wearing to the wedding?", "What's my outfit for the wedding?"],
                 say=["wearing {v} to the wedding", "outfit is {v}", "went with {v} for the wedding fit"]),
        ],
        facts=[("relationship", "i'm in the wedding party, {sis} asked me last month"),
               ("event", "{groom} proposed at a karaoke bar of all places"),
               ("knowledge", "{groom}'s family is huge, basically half the guest list"),
               ("plan", "flying in a couple days early to help set up"),
               ("preference", "no choreographed entrance for me, hard no"),
               ("decision", "{sis} said no phones during the ceremony"),
               ("relationship", "my bro {bro} is doing the playlist")],
        loops=[dict(acts=["write my toast for {sis}'s wedding", "draft the wedding toast"],
                    opens=["the toast is on me and i have literally zero words so far"],
                    done=["toast drafted, made myself cry reading it back", "toast is written and timed"]),
               dict(acts=["book flights for the wedding", "sort my wedding flights"],
                    done=["flights booked, got an aisle seat", "wedding flights are booked"]),
               dict(acts=["order something off {sis}'s registry", "buy the registry gift"],
                    done=["got the stand mixer off the registry", "registry gift ordered, ships {day}"])],
        asks=[("how do i open a wedding toast without being cringe?",
               "Start with a short, specific story about the couple rather than a joke or a definition of love, "
               "and get to them quickly - people want to hear about the two of them, not you."),
              ("whats the etiquette on plus ones if the invite doesnt say?",
               "If the invite names only you, assume it's just you; if you're unsure, ask the couple directly "
               "and early rather than bringing someone."),
              ("family group chat is a zillion msgs deep about napkin colours :skull:", "Muting it and checking once "
               "a day is a perfectly valid survival strategy.")],
        maybe=["honestly eloping would've saved everyone a ton of money",
               "maybe i'll learn to dance before the wedding, maybe not",
               "whats the hotel block they set up called again?"],
    ),
    dict(
        name="cycling sportive", short=["training", "the sportive", "riding"],
        ents=dict(ridebuddy="PEOPLE", mechanic="PEOPLE"),
        slots=[
            dict(id="sportive", kind="name", pool="SPORTIVES", type="plan", topic="my target event",
                 q=["Which sportive am I training for?", "What's my big ride this season?"],
                 say=["signed up for the {v}", "target event is the {v}", "locked in the {v} as my A race"]),
            dict(id="sportive_day", kind="date", type="event", topic="event day",
                 q=["When is my sportive?", "What date is the big ride?"],
                 say=["ride day is {v}", "the sportive is {v}", "event's on {v}"]),
            dict(id="weekly_km", kind="number", num=(120, 400), fmt=["{} km"], type="plan", topic="my weekly volume",
                 q=["How much am I riding per week right now?", "What's my weekly volume?"],
                 say=["weekly volume is {v} this block", "riding {v} a week atm", "plan has me at {v} per week"]),
            dict(id="ride_bike", kind="thing", pool="BIKES", type="preference", topic="my bike for the event",
                 q=["Which bike am I riding in the event?", "What bike am I using for the sportive?"],
                 say=["riding the {v} on the day", "taking the {v}", "bike for the day = {v}"]),
            dict(id="ftp", kind="number", num=(180, 320), fmt=["{} watts", "{} w"], type="knowledge", topic="my FTP",
                 q=["What's my current FTP?", "What did my last FTP test come out at?"],
                 say=["ftp test came out at {v}", "current ftp: {v}", "tested at {v}, not bad"]),
        ],
        facts=[("identity", "only got into cycling a couple years ago, came from swimming"),
               ("relationship", "{ridebuddy} and i do the thursday chaingang together"),
               ("preference", "indoor trainer only when it's pouring, i'd rather freeze outside"),
               ("event", "crashed on a wet descent {day}, just road rash"),
               ("decision", "switching to tubeless this season"),
               ("knowledge", "if i dont eat every three quarters of an hour i bonk hard"),
               ("relationship", "{mechanic} at the bike shop does all my servicing")],
        loops=[dict(acts=["get the bike serviced before the event", "book a service with {mechanic}"],
                    done=["bike's back from {mechanic}, shifting is buttery", "service done, new chain + cassette"]),
               dict(acts=["book a hotel near the start", "sort accommodation for the sportive"],
                    opens=["still havent booked anywhere to stay for the sportive"],
                    done=["hotel booked {few} min from the start", "accommodation sorted for the ride"]),
               dict(acts=["buy new tyres", "order a fresh set of tyres"],
                    done=["new tyres arrived", "tyres are on the bike"])],
        asks=[("how should i pace a long sportive so i dont blow up?",
               "Ride the first half well below what feels hard, keep climbs steady rather than surging, and eat "
               "and drink on a schedule before you feel hungry or thirsty."),
              ("is it bad that my knee twinges on long climbs?", "It can be a fit issue - saddle height or cleat "
               "position - so a quick bike fit check is worth it; if it persists, see a physio."),
              ("did a 5hr ride today and i'm now a potato", "Well earned. Carbs, fluids and an early night "
               "sound like the plan.")],
        maybe=["if i had the time i'd do a stage race, lol",
               "someday i want to ride across the alps",
               "which gel brand was it that wrecked my stomach?"],
    ),
    dict(
        name="internal hackathon", short=["the hackathon", "hack week", "hackathon planning"],
        ents=dict(vp="PEOPLE", cohost="PEOPLE"),
        slots=[
            dict(id="hack_day", kind="date", type="plan", topic="the hackathon date",
                 q=["When is the hackathon?", "What date did we pick for hack week?"],
                 say=["hackathon kicks off {v}", "hack week starts {v}", "we picked {v} for the hackathon"]),
            dict(id="hack_theme", kind="thing", pool="HACK_THEMES", type="decision", topic="the hackathon theme",
                 q=["What's the theme of the hackathon?", "What theme did we go with for hack week?"],
                 say=["theme is {v}", "we're going with {v} as the theme", "the hackathon theme will be {v}"]),
            dict(id="prize_pot", kind="number", num=(300, 1500), fmt=["${}"], type="decision", topic="the prize pot",
                 q=["How much prize money is there for the hackathon?", "What's the prize budget?"],
                 say=["prize pot is {v}", "{vp} approved {v} for prizes", "we have {v} for the winners"]),
            dict(id="team_count", kind="number", num=(11, 36), fmt=["{} teams", "{}"], type="knowledge",
                 topic="signups",
                 q=["How many teams signed up for the hackathon?", "How many teams are competing?"],
                 say=["we're at {v} signed up", "signups closed with {v}", "{v} registered so far"]),
            dict(id="head_judge", kind="name", pool="PEOPLE", type="relationship", topic="the head judge",
                 q=["Who is the head judge for the hackathon?", "Who's judging the hackathon?"],
                 say=["{v} agreed to be head judge", "{v} is chairing the judging", "head judge -> {v}"]),
        ],
        facts=[("decision", "demos are capped at three min, hard stop"),
               ("relationship", "{cohost} is co-organising with me"),
               ("plan", "we're doing a remote track so the satellite offices can join"),
               ("event", "last yr's winning hack actually shipped, which is the pitch this year"),
               ("preference", "no slide decks in demos, only working stuff"),
               ("relationship", "{vp} wants to announce the winners at the all-hands"),
               ("knowledge", "the big room fits about {n} ppl seated")],
        loops=[dict(acts=["book the big room for the demos", "reserve the auditorium for demo day"],
                    done=["big room is booked for demos", "auditorium reserved, {cohost} has the keys"]),
               dict(acts=["order food for the hackathon", "sort catering for hack week"],
                    opens=["catering for hack week is still nobody's job, guess it's mine"],
                    done=["pizza + dumplings ordered", "catering confirmed for both days"]),
               dict(acts=["get {vp} to record a kickoff video", "ask {vp} for a quick kickoff clip"],
                    done=["{vp} sent the kickoff clip", "kickoff video is recorded, {vp} nailed it in one take"])],
        asks=[("how do we stop the hackathon turning into people doing their normal jobs?",
               "Ask for a one-line pitch up front that isn't on anyone's roadmap, mix teams across departments, "
               "and make the prize categories reward weird ideas, not polish."),
              ("best way to judge fairly when demos are so different?", "A short rubric - impact, creativity, "
               "how much actually works - scored independently by each judge before any discussion."),
              ("organising this is eating every spare hour i have", "Sounds like a lot on top of your day job. "
               "Could your co-organiser take a whole chunk, like food or judging, end to end?")],
        maybe=["if we did this every quarter ppl would riot",
               "would be cool to invite other companies some year",
               "who won the hackathon before last?"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "correction: {say} (not {old})", (), "any"),
    ("explicit", "correcting myself re {topic} -> {v}", (), "any"),
    ("explicit", "small correction on {topic}, should be {v}", (), "any"),
    ("actually", "oh wait it's actually {v}, my bad", (), "same"),
    ("actually", "hm actually {say}", (), "any"),
    ("misspoke", "ignore my last msg, {say}", (), "same"),
    ("misspoke", "brain fart, {v} not {old}", (), "same"),
    ("misspoke", "typo'd that earlier :facepalm: {say}", (), "any"),
    ("change", "change of plans -> {say}", (), "later"),
    ("change", "we pivoted, {say} now instead of {old}", (), "later"),
    ("moved", "{topic} shifted to {v}", ("date", "place"), "later"),
    ("moved", "heads up {topic} slipped to {v}", ("date",), "later"),
    ("moved", "{topic} got pulled in to {v}", ("date",), "later"),
    ("is-now", "{topic} is {v} now fyi", (), "later"),
    ("is-now", "{topic} -> {v} now (was {old})", (), "later"),
    ("scratch", "scratch that -> {say}", (), "same"),
    ("scratch", "pls scratch what i said re {topic}, {say}", (), "any"),
    ("implicit", "{Say}", (), "later"),
    ("implicit", "synced w/ the team this am. {Say}", (), "later"),
    ("implicit", "ok so {say}", (), "later"),
    ("implicit", "heads up, {say}", (), "later"),
    ("updated", "update: {say}", (), "later"),
    ("updated", "circling back on {topic} - went from {old} to {v}", (), "later"),
    ("updated", "quick update re {topic}, it's {v}", (), "later"),
]

LOOP_OPEN = ["i'll {act} {due}", "adding '{act}' to my plate", "on my plate: {act} {due}", "{act} -> me, {due}",
             "ok that's on me, will {act} {due}", "can u keep tabs on this for me: {act}?",
             "ping me if i forget to {act}", "will action: {act} {due}", "todo (me): {act}",
             "i said i'd {act} {due} so holding myself to it", "action item for me -> {act} {due}",
             "need to {act} {due}, pls keep me honest", "ugh i still gotta {act}",
             "taking this one: {act} {due}"]
DUES = ["b4 i log off today", "eod fri", "by eow", "before thurs standup", "tmrw", "next sprint", "before the wknd", "asap",
        "by mon", "sometime mid-wk"]

ACK = ["Ack.", "Got it, noted.", "That tracks.", "Sensible.", "Logged it.", "Okay - anything else on that front?",
       "Clear, thanks.", "Helpful context, thanks.", "Reasonable - noted.", "Sounds reasonable. Need anything from me?"]
ACK_VALUE = ["Recorded {topic}: {v}.", "Okay - {topic} noted as {v}.", "Alright: {topic} -> {v}.", "Got it - {v}."]
ACK_CHANGE = ["Updated {topic} to {v}.", "Okay, swapping {old} for {v}.", "Noted, {topic} changed: {v} now.",
              "Got it, going with {v} instead of {old}."]
ACK_TODO = ["Tracking it for you.", "On your list now.", "Added as an open item.", "I'll keep an eye on that one."]
ACK_DONE = ["Nice, closing that out.", "Great, ticked off.", "Done and dusted - removed from your list.",
            "Love it, that's one less open item."]

OPENERS = ["morning :wave:", "hey hey", "yo", "{short} again, sorry", "q abt {short}", "back, sry for the delay",
           "got a sec?", "eod brain dump incoming", "circling back to {short} :eyes:", "ping",
           "ok, remind me where we left off", "gm", "thinking out loud for a min, bear with me", "{short} stuff, quick one"]
GREETINGS = ["Hey {me}, go ahead and shoot.", "Hi {me}, what's going on?", "Here! Fire away.", "Morning {me}. What do you need?",
             "I'm around, shoot.", "Hey! What's on your plate?"]
CLOSERS = ["ok that's all from me, ty", "gtg, ttyl :wave:", "cool cool, thx", "ok signing off", "perfect ty :pray:",
           "alright logging off for the day"]
GOODBYES = ["Have a good one!", "Catch you later, {me}.", "Anytime, good luck with it.", "Enjoy your evening, or whatever's left of the day.",
            "Later, {me}!"]
FILLERS = [("brb", "Sure, take your time."), ("sry got pulled into a sync", "No worries, whenever you're back."),
           ("ty", "No problem at all."), ("lol yeah", "Ha."), ("wait where was i", "You were mid-way through {short}."),
           ("one sec, someone's at my desk", "Go ahead."), ("ugh slack is lagging", "No rush, I'll be here."),
           (":thumbsup:", "👍")]
RECAP_ASKS = ["tl;dr on {short}?", "where are we at w/ {short}", "gimme the recap pls", "status check on {short}?"]
RECAP_TODO = ["Still open for you: {todo}", "Still outstanding on your list: {todo}", "Still on your side of the table: {todo}"]
RECAP = ["Here's the {short} rundown: {body}.", "State of play on {short} - {body}.", "TL;DR - {body}.", "Status: {body}."]
LEADS = ["fwiw, ", "update on {short}: ", "re {short} - ", "psa: ", "circling back: "]
LOWER_OK = r"(?:We|The|Our|My|Fyi|Heads|Update|Ok|So|Need|Adding|On|Quick|Circling|Synced|Cutover|Move)\b"
JOINERS = [" + also ", " & ", " oh and also ", " btw, "]

PERSONAL = [("identity", "fwiw i'm an eng manager at {employer}"),
            ("identity", "i'm in {city}, so assume my timezone for anything"),
            ("relationship", "my partner {partner} works nights at the hospital"),
            ("relationship", "my bro {bro} is staying w/ us for a bit"),
            ("preference", "pescatarian btw if u ever suggest food"),
            ("preference", "keep replies short pls, i'm mostly on mobile"),
            ("preference", "no meetings before 10 for me, non-negotiable"),
            ("relationship", "our cat {pet} runs the household tbh"),
            ("identity", "grew up on a farm, moved to the city for uni"),
            ("preference", "i cannot stand olives, just so u know"),
            ("event", "{partner} + me are freshly back from a long wknd away"),
            ("identity", "i'm ooo most fridays this quarter, compressed hours")]

CHITCHAT = [("whats a good album for deep work?", "Something without lyrics usually works best - ambient, "
             "post-rock or a film score you know well enough that it fades into the background."),
            ("it's raining sideways here lol", "Perfect excuse to stay in with something warm."),
            ("4th coffee of the day, send help", "Maybe switch to water for the next one - your future self "
             "will thank you around 11pm."),
            ("dinner idea w/ basically zero effort?", "Fried rice with whatever veg you have and an egg on top is "
             "hard to beat for speed."),
            ("rec me a book for a flight", "A fast-paced mystery or a short essay collection - something you "
             "can dip in and out of."),
            ("why are tuesdays always the worst", "Monday has adrenaline, Tuesday has the full week still ahead "
             "- it's a rough middle."),
            ("my monstera has brown spots :sob:", "Brown crispy edges usually mean dry air or underwatering; "
             "soft dark patches tend to be overwatering."),
            ("tell me something random i dont know", "Honey found in ancient Egyptian tombs was still edible - it basically "
             "doesn't spoil."),
            ("nap or gym, go", "Gym first, nap as the reward."),
            ("is a bowl of cereal a legit lunch", "Legit enough - throw some fruit on it and call it balanced-ish."),
            ("how do ppl do those fancy latte art hearts", "Steam the milk to a glossy microfoam, pour high to "
             "start, then drop the jug close and wiggle - and expect a lot of blobs at first."),
            ("someone on my floor keeps microwaving fish :skull:", "A crime against open-plan offices. A "
             "polite note in the kitchen might do it."),
            ("fav time of day?", "I don't really have one, but early mornings get a lot of love from people who "
             "like quiet."),
            ("i hit inbox zero for like 4 seconds", "That still counts. Frame it."),
            ("tips for keeping herbs alive on a windowsill?", "Bright light, a pot with drainage, and water "
             "only once the soil surface feels dry - and snip often so they bush out."),
            ("my laptop fan is screaming rn", "Check for a runaway process in the activity monitor; "
             "dust in the vents is the other usual culprit."),
            ("neck is wrecked from the laptop hunch", "Prop the laptop on a stack of books with a separate keyboard, "
             "then every hour or so roll your shoulders back and stretch your neck gently."),
            ("hot take: every meeting should be half as long", "A lot of people would sign that petition."),
            ("want to get back into reading but i just doomscroll", "Keeping a book where you usually grab "
             "your phone - bedside, sofa - makes it an easier swap."),
            ("what do u even do on a bank holiday", "Long walk, big breakfast, one small chore so you feel "
             "productive, and then nothing at all.")]
REQUESTS = [("can u draft a quick msg to {stranger} at {org} - i need to push our {day} call, can do {n} min later "
             "that day",
             "Sure:\n\nHi {stranger}, would it be alright to push our {day} call back by {n} minutes? Something "
             "came up just before. Thanks for your flexibility!\n\n{me}"),
            ("tl;dr this pls: '{org} saw {big} failed logins overnight, {stranger} thinks it was a bot and wants "
             "{n} more rate-limit rules'",
             "{org} had {big} failed logins overnight; {stranger} suspects a bot and proposes {n} more rate-limit "
             "rules."),
            ("{stranger} is opening a taco truck, brainstorm names?",
             "Some options: {stranger}'s Tacos, Salsa Verde Express, Tortilla Flats, Wheels & Tacos, Masa Mobile."),
            ("short poem about a printer that jams {few} times a day", "Paper in, and paper stuck, / {few} times "
             "daily, just my luck; / I press the button, pray, and wait - / the printer laughs and seals my fate."),
            ("spellcheck pls: 'hey {stranger}, the {n} reciepts from {day} are attatched'",
             "'Hey {stranger}, the {n} receipts from {day} are attached.' - fixed 'receipts' and 'attached'."),
            ("help me answer {stranger} - they want ${n} back for a cancelled class at {org}",
             "Hi {stranger}, sorry about the cancelled class - a ${n} refund is on its way and usually lands in "
             "3-5 business days."),
            ("how do u say 'the standup is moved to room {n}' in german", "'Das Standup wurde in Raum {n} "
             "verlegt.'"),
            ("make this less passive aggressive: '{stranger}, per my last email, {org} is still waiting on ${big}'",
             "'Hi {stranger}, just following up on my earlier note - {org} still shows an open balance of "
             "${big}. Let me know if anything is holding it up.'"),
            ("need a carry-on-only packing list, {few} nights away for work",
             "For {few} nights with just a carry-on: {few} shirts, two pairs of trousers, a jumper, socks and "
             "underwear, one extra pair of shoes, laptop plus chargers and a plug adapter, small toiletries, "
             "and your work badge."),
            ("explain what an api is to my mum", "It's like a waiter in a restaurant: you don't go into the "
             "kitchen, you tell the waiter what you want and they bring it back from the kitchen for you.")]
DISTRACTORS = ["if i actually did every action item from every meeting i'd need {few} clones",
               "what's the app everyone uses to split the lunch order?",
               "in theory i should clean up my jira board, lol not happening",
               "someone really shd fix the wifi in the big room (not me)",
               "already renewed my parking pass last wk",
               "could refactor the old cron jobs someday but nah",
               "one day i'll learn to play the drums",
               "would be great if the coffee machine worked for once"]
UNSURE = ["Hmm, I don't think that's come up between us.", "Not something you've told me, sorry.",
          "I don't have that one - want to dig it up together?", "No idea, that hasn't come up here."]
SHRUG = ["Ha, very relatable.", "Ha, point very much taken.", "Extremely valid tbh.", "No judgement here.", "Same energy as most of us."]
SUGGEST = [("wdyt?", "One option: sanity-check it with someone outside the team before you commit - your call "
            "though."),
           ("am i missing anything obvious", "Maybe double-check who needs a heads-up before {day}, and drop "
            "a short note in the channel."),
           ("what would u do here", "Personally I'd grab a quiet slot on {day}, notifications muted, and work through it properly."),
           ("any other angles?", "A shared tracker might stop things slipping - I can sketch one if that "
            "helps.")]
