"""Phrase bank 'foreman'. The voice: a site foreman who runs a small building outfit somewhere in North America
and types between jobs - short and blunt, trade jargon (subs, RFI, punch list, rough-in, change order), dropped
subjects, abbreviations, some Spanish, typos and lower-case lines. Threads mix two building jobs (a client's kitchen
remodel, a small commercial fit-out), crew and hiring, the truck and rented equipment, the books and insurance, a
kid's baseball season, a fishing trip and a younger sister's wedding.
Written only from truth-bench's README, gen.py and the dev bank's structure; no names, topics or sentences shared
with other banks. Placeholders as in dev: {v}/{old} slot values, {say}, {topic}, thread entities, {me} the user,
{n}/{n2}/{big}/{few} fresh numbers, {day}, {due}, {stranger}/{org} (one-off requests only)."""

NAME = "foreman"

USERS = ["Ray Kowalski", "Luis Ocampo", "Darrell Pugh", "Gina Marchetti", "Ramon Zelaya", "Troy Lindgren",
         "Bernadette Cruz", "Curtis Oyelaran", "Javier Montemayor", "Shane McAllister", "Denise Fortier",
         "Eddie Harjo", "Marisol Quintero", "Dewey Stroud", "Rocco Amato", "Lonnie Bergeron"]

PEOPLE = ["Hector", "Chuy", "Rigo", "Cuauhtémoc", "Baltazar", "Maribel", "Yesenia", "Araceli", "Anselmo", "Efrain",
          "Rosalinda", "Dwayne", "Travis", "Darlene", "Kurt", "Gordie", "Shawna", "Brent", "Lyle", "Cody", "Tammy",
          "Randy", "Duane", "Roxanne", "Marcy", "Vern", "Fermín", "Garrett", "Darnell", "Keisha", "Tevita", "Manny",
          "Thuy", "Deshawn", "Corinne", "Royce", "Merle", "Lorna", "Boyd", "Rhett", "Kyla", "Osvaldo", "Nereida",
          "Wendell"]
STRANGERS = ["Mr. Haverkamp", "Loretta Skaggs", "Mrs. Ybarra", "Dennis Crouch", "Fran Pettigrew", "Mr. Ekwueme",
             "Wanda Kreider", "Luther Mayfield", "Irma Castellanos", "Yolanda Briggs", "Clint Ashworth",
             "Mrs. Threadgill"]
ORGS = ["Tri-Valley Lumber", "Hollister Supply", "Eastgate Credit Union", "Pinewood Water District",
        "Redhawk Concrete", "Millbrook HOA", "Sterling Bonding Co", "Quarry Road Tile", "Bexley County Permits"]
CLIENTS = ["Vandermeer", "Thibodeaux", "Abernathy", "Szabo", "Okonjo", "Delacroix", "Pruitt", "Halvorsen"]
CABINETS = ["Birchmont shaker", "Harlow slab-door", "Calloway inset", "Greystone raised-panel",
            "Alder Creek flat-panel", "Winslow beadboard"]
PLUMBERS = ["Ruelas Plumbing", "Dry Creek Plumbing", "Brannock Mechanical", "Tolliver Plumbing & Drain",
            "Two Rivers Pipe Co", "Espinoza Plumbing"]
TENANTS = ["Blue Heron Yoga", "Maplewood Physio", "Saltbox Bakery", "Quickstep Urgent Care",
           "Tall Pines Vision Clinic", "Ferncastle Coffee"]
ELECTRICIANS = ["Kessler Electric", "Ortega & Sons Electric", "Highwire Electrical", "Sparrow Creek Electric",
                "Amperline Electric"]
STAFFING = ["Ironworks Staffing", "Summit Labor Co", "Trade Hands Staffing", "BuildForce Temps",
            "Crane & Keel Labor"]
SHOPS = ["Dutchman's Truck Repair", "Kwan Auto & Fleet", "Big Rock Truck Repair", "Ferrell's Garage",
         "Eastside Fleet Service"]
YARDS = ["Hi-Reach Rentals", "Gopher Equipment Rental", "Tri-County Rent-All", "Badger Tool Rental"]
RENTALS = ["mini excavator", "scissor lift", "skid steer", "plate compactor", "trencher", "boom lift"]
INSURERS = ["Granite Shield Mutual", "Prairie Hollow Insurance", "Bulwark Casualty",
            "Northstar Contractors Mutual", "Ironbridge Insurance"]
TEAMS = ["Copper Hawks", "Millpond Muskrats", "Ridgeback Rams", "Tri-County Thunder", "Big Sky Bison",
         "River City Riptide"]
POSITIONS = ["shortstop", "catcher", "second base", "center field", "third base", "left field"]
LAKES = ["Kettle Lake", "Tamarack Reservoir", "Loon Narrows", "Sturgeon Bay Flowage", "Lac Brochet",
         "Pike Hollow Lake"]
FISH = ["walleye", "smallmouth", "lake trout", "northern pike", "crappie", "muskie"]
WEDDING_VENUES = ["Stonegate Barn", "Lakeview Grange Hall", "Hilltop Orchard Pavilion", "Cedar Hollow Winery",
                  "Whistle Creek Ranch"]
SUITS = ["charcoal three-piece", "navy tux", "tan linen suit", "heather grey suit", "black tux with a bolo"]
SISTERS = ["Jolene", "Marisa", "Consuelo", "Tiffani", "Yadira", "Kendra"]
KIDS = ["Jaxon", "Izzy", "Brody", "Paloma", "Emilio", "Kaylee", "Santi", "Rylan"]
TOWNS = ["Millersburg", "Paso Verde", "Cutbank", "Harlan Springs", "Lodgepole", "Amberley Falls"]
DOGS = ["Tonka", "Bandit", "Pancho", "Lugnut", "Roxie"]

PERSONAL_ENTS = dict(spouse="PEOPLE", kid="KIDS", sis="SISTERS", town="TOWNS", dog="DOGS")

THREADS = [
    dict(
        name="kitchen remodel", short=["the {client} job", "the kitchen job", "the {client} kitchen", "the remodel"],
        ents=dict(client="CLIENTS", tilesetter="PEOPLE", designer="PEOPLE"),
        slots=[
            dict(id="contract", kind="number", num=(38, 96), fmt=["${}k", "${},000"], type="decision",
                 topic="the {client} contract price",
                 q=["What's the contract price on the {client} kitchen?", "How much is the {client} remodel contract for?"],
                 say=["{client} signed at {v}", "contract on teh {client} kitchen came to {v}",
                      "we're at {v} all in on the {client} job", "{v} is the number on the {client} contract, signed and everything",
                      "final price for the kitchen is {v}, {client} didnt even haggle"]),
            dict(id="cab_delivery", kind="date", type="plan", topic="the cabinet delivery",
                 q=["When are the cabinets for the {client} kitchen being delivered?", "What day do the {client} cabinets show up?"],
                 say=["cabs land {v}", "supplier says cabinets deliver {v}", "cabinet delivery for {client} is {v}",
                      "cabs are supposed to show {v}, we'll see", "cabnets ship to the {client} house {v}"]),
            dict(id="cab_line", kind="thing", pool="CABINETS", type="preference", topic="the cabinet line",
                 q=["Which cabinet line did {client} pick?", "What cabinets are going in the {client} kitchen?"],
                 say=["{client} went with {v} for the cabs", "cabinets are gonna be {v}", "they picekd {v} cabinets",
                      "ordering {v} for the whole run, uppers and lowers"]),
            dict(id="plumber", kind="name", pool="PLUMBERS", type="decision", topic="the plumbing sub on the kitchen",
                 q=["Who's doing the plumbing on the {client} job?", "Which plumber did I sub the {client} kitchen to?"],
                 say=["{v} is doing the plumbing rough-in", "subbed the plumbing to {v}",
                      "{v} got the plumbing on the {client} job", "plumbing sub is {v}, there bid was cleanest"]),
            dict(id="walkthrough", kind="date", type="event", topic="the final walkthrough with the client",
                 q=["When is the final walkthrough on the {client} kitchen?", "What day do I walk the finished kitchen with {client}?"],
                 say=["final walkthrough w/ {client} is {v}", "we walk the finsihed kitchen with {client} on {v}",
                      "{client} wants the final walk {v}"]),
        ],
        facts=[("decision", "{client} wants the wall between kitchen and dining gone, so we're putting in a header"),
               ("knowledge", "house was built in the fifties, prob knob and tube behind the plastor"),
               ("relationship", "{designer} is the designer {client} hired - designer picks, I build"),
               ("event", "tore out the old kitchen {day}, found rot under the sink base"),
               ("preference", "{client} wants everything soft-close, wont budge on it"),
               ("plan", "rough-in inspection first, then insulaton, then we hang board"),
               ("relationship", "{tilesetter} sets all my tile, best in the county"),
               ("decision", "keeping the old window where it is, {client} didn't want to pay to move it"),
               ("knowledge", "{client} works from home so no saws before mid-morning")],
        loops=[dict(acts=["chase the county on the {client} permit", "get the county to sign off on the {client} permit"],
                    opens=["still no word from the county on the {client} permit",
                           "permit's been sitting at the county for weeks, nobody calls back"],
                    done=["county stamped the drawings", "permit's finally taped up in the {client} window",
                          "permit came thru {day}, we're legal"]),
               dict(acts=["get {client} to sign the pantry change order", "get a signature from {client} on the pantry CO"],
                    opens=["need {client} to sign the CO for the pantry before we frame it"],
                    done=["{client} signed the pantry CO last night", "pantry change order came back signed"]),
               dict(acts=["get the dumpster swapped at the {client} house", "call for a dumpster swap"],
                    opens=["dumpster at {client}'s is overflowing again"],
                    done=["dumpster got swapped this am", "fresh empty dumpster in the drivway now"]),
               dict(acts=["order the cabinet hardware", "get the pulls and hinges ordered"],
                    done=["pulls and hinges showed up", "hardware's sitting in the {client} garage now",
                          "ya quedó on the hardware, it's here"])],
        asks=[("whats normal for markup on a change order?",
               "Plenty of small contractors add a set percentage for overhead and profit on top of cost, and write "
               "that percentage into the original contract so the client isn't surprised later."),
              ("how do I tell a client their tile pick is ugly without losing the job",
               "Don't call it ugly - show a photo of it installed in a similar room and offer an alternative or "
               "two. Let them decide with better information."),
              ("client texted me at midnight about grout color. again",
               "That's rough. It might help to set texting hours in writing and batch the finish questions into "
               "one weekly meeting.")],
        maybe=["if {client} adds one more thing this job'll never end",
               "someday I'll redo my own kitchen, cobbler's kids got no shoes",
               "which sealer does {tilesetter} swear by again?"],
    ),
    dict(
        name="commercial fit-out", short=["the {tenant} job", "the fit-out", "the TI job", "{tenant}"],
        ents=dict(tenant="TENANTS", architect="PEOPLE", propmgr="PEOPLE", drywaller="PEOPLE"),
        slots=[
            dict(id="turnover", kind="date", type="plan", topic="the {tenant} turnover date",
                 q=["When do we turn the {tenant} space over?", "What's the turnover date on the {tenant} fit-out?"],
                 say=["turnover to {tenant} is {v}", "we hand {tenant} the keys {v}",
                      "{propmgr} wants the space turnd over by {v}", "TI has to wrap {v}, {tenant} opens right after"]),
            dict(id="sqft", kind="number", num=(1100, 4800), fmt=["{} sq ft", "{} square feet"], type="knowledge",
                 topic="the size of the {tenant} space",
                 q=["How big is the {tenant} space?", "How many square feet is the fit-out?"],
                 say=["space is {v}", "{tenant} is leasing {v}", "we're building out {v} for {tenant}",
                      "floor plan says {v}, feels smaller"]),
            dict(id="elec", kind="name", pool="ELECTRICIANS", type="decision", topic="the electrical sub on the fit-out",
                 q=["Which electrician is on the {tenant} job?", "Who did I sub the electrical to on the fit-out?"],
                 say=["{v} is doing the electrical", "gave the electrical to {v}", "electrical sub on the TI is {v}",
                      "{v} came in lowest on electric so they got it"]),
            dict(id="framing_insp", kind="date", type="event", topic="the framing inspection",
                 q=["When is the framing inspection on the {tenant} space?", "What day is the fit-out framing inspection?"],
                 say=["framing inspection is {v}", "city's coming out for framing {v}",
                      "got framing inspecton on the books for {v}"]),
            dict(id="hvac_co", kind="number", num=(400, 990), fmt=["${}", "{} bucks"], type="decision",
                 topic="the HVAC change order",
                 q=["How much is the HVAC change order on the fit-out?", "What did the HVAC change order come to?"],
                 say=["HVAC change order is {v}", "mech sub wants {v} extra for the added difusers",
                      "CO for the HVAC came in at {v}"]),
        ],
        facts=[("knowledge", "landlord wants every sub's COI on file before they step on site"),
               ("relationship", "{propmgr} is the property manager, everything goes thru them"),
               ("relationship", "{architect} drew the plans, RFIs go to {architect}"),
               ("decision", "steel studs on the demising wall, wood everywhere else"),
               ("event", "opened the ceiling {day} and found an old sprinkler line nobody knew abuot"),
               ("plan", "board goes up once the above-ceiling inspection passes"),
               ("knowledge", "building only lets contractors in after hours, so we're on nights"),
               ("relationship", "{drywaller} and crew are hanging and taping, quick and clean"),
               ("preference", "I hate night work, but the landlord won't budge")],
        loops=[dict(acts=["chase {architect} on the soffit RFI", "get an answer out of {architect} on the soffit RFI"],
                    opens=["still waiting on {architect} to answer the RFI about the soffit",
                           "soffit RFI's been siting with {architect} all week"],
                    done=["{architect} answered, soffit comes out", "RFI came back, we're dropping the soffit"]),
               dict(acts=["get {drywaller} to sign the lien waiver", "collect the lien waiver from {drywaller}"],
                    opens=["need {drywaller} to sign the lien waiver before the draw"],
                    done=["{drywaller}'s waiver is signed and in the draw package",
                          "lien waiver from {drywaller} came back notarized"]),
               dict(acts=["walk the punch list with {propmgr}", "do the punch walk with {propmgr}"],
                    done=["walked it with {propmgr}, {few} items on the punch, mostly paint",
                          "{propmgr} walked it, punch list is down to touch-ups"]),
               dict(acts=["get this month's pay app in", "submit the pay app to {propmgr}"],
                    opens=["pay app for the {tenant} job is due and I haven't touched it"],
                    done=["pay app's in {propmgr}'s hands", "{propmgr} approved the pay app, check's coming"])],
        asks=[("whats the diff between a TI allowance and free rent",
               "A TI allowance is money the landlord puts toward building out the space; free or reduced rent is "
               "abatement. Tenants often negotiate both, and the allowance affects how much the tenant pays you directly."),
              ("how do I word an RFI so the architect actually answers",
               "One question per RFI, point to the exact sheet and detail, propose a fix they can simply approve, "
               "and give a needed-by date tied to the schedule."),
              ("these night shifts are killing me",
               "That schedule is brutal. Guard your sleep like a job commitment - blackout curtains help - and "
               "rotate the crew so nobody works every night.")],
        maybe=["if {tenant} had signed a month earlier we'd be on days instead of nights",
               "in theory we could pull a second crew onto this, but who",
               "remind me what the landlord calls that after-hours rule?"],
    ),
    dict(
        name="crew and hiring", short=["the crew", "hiring", "the new guy search", "crew stuff"],
        ents=dict(lead="PEOPLE", hire="PEOPLE", quitter="PEOPLE"),
        slots=[
            dict(id="rate", kind="number", num=(22, 41), fmt=["${} an hour", "${} per hour", "{} bucks an hour"],
                 type="decision", topic="the pay rate for the new laborer",
                 q=["What hourly rate am I offering the new laborer?", "How much an hour does the new hire get?"],
                 say=["offering {v} to start", "new laborer starts at {v}", "told {hire} {v}, take it or leave it",
                      "pay's {v} for the new spot, no more"]),
            dict(id="start", kind="date", type="plan", topic="the new hire's start date",
                 q=["When does the new laborer start?", "What's {hire}'s first day?"],
                 say=["{hire} starts {v}", "first day for {hire} is {v}", "new guy's on the crew starting {v}"]),
            dict(id="agency", kind="name", pool="STAFFING", type="decision", topic="the staffing agency",
                 q=["Which staffing agency am I using for temp labor?", "Who sends me temp laborers?"],
                 say=["signed up w/ {v} for temp guys", "using {v} for fill-in labor", "{v} is sending us temps now"]),
            dict(id="second_lead", kind="name", pool="PEOPLE", type="relationship", topic="the second-crew lead",
                 q=["Who is running my second crew?", "Who's lead on the second crew now?"],
                 say=["{v} is runing the second crew", "bumped {v} up to lead on crew two",
                      "{v} takes over the second crew, they earned it"]),
        ],
        facts=[("relationship", "{lead} is my lead carpenter, been with me since the start"),
               ("event", "{quitter} quit {day}, no notice, just didn't show"),
               ("decision", "no more paying cash, everybody's on payroll now"),
               ("knowledge", "{lead} says ahorita and that can mean today or next week"),
               ("preference", "I'd rather hire green and train than take somebody with bad habits"),
               ("plan", "want a second crew going by summer so I can run two jobs at once"),
               ("event", "{hire} showed up early the first day, I like {hire} already"),
               ("knowledge", "good finish carpenters are impossable to find right now, everybody's booked")],
        loops=[dict(acts=["post the laborer ad", "get a help-wanted ad up for a laborer"],
                    done=["ad's up, phone's already ringing", "ad went live, {n} guys alredy called"]),
               dict(acts=["get {hire}'s paperwork done for payroll", "do the new-hire paperwork for {hire}"],
                    opens=["{hire} still hasn't filled out the tax forms"],
                    done=["{hire}'s paperwork is in the binder", "payroll has {hire} set up now"]),
               dict(acts=["talk to {lead} about the late starts", "have a word with {lead} about rolling in late"],
                    opens=["{lead}'s been rolling in late, gotta say something"],
                    done=["had it out with {lead}, on time every day since", "{lead} and I talked, we're good now"]),
               dict(acts=["buy harnesses for the new guys", "get fall protection for the new hires"],
                    done=["new harnesses are hanging in the trailer", "fall gear for the new guys came in"])],
        asks=[("how do you let somebody go without it turning into a whole thing",
               "Keep it short and private, give the reason plainly, have the final pay ready, and don't debate it. "
               "Write down what happened afterward."),
              ("what do I ask a laborer in an interview, they all say they're hard workers",
               "Ask about the last job they were on and what they did each day, what tools they own, and call the "
               "previous boss - that tells you more than the answers do."),
              ("crew was dragging today, nobody talked, weird vibe",
               "Could be the heat, could be something going on. A quick check-in over lunch - or buying tacos - "
               "sometimes clears the air.")],
        maybe=["if I paid union scale I'd be broke in a month",
               "someday I'll have an office manager and never touch payroll again",
               "who's that trim guy {lead} knows, forget his name?"],
    ),
    dict(
        name="truck and equipment", short=["the work truck", "equipment", "the rental", "truck stuff"],
        ents=dict(mechanic="PEOPLE", yard="YARDS"),
        slots=[
            dict(id="repair", kind="number", num=(640, 990), fmt=["${}", "{} bucks"], type="knowledge",
                 topic="the truck repair quote",
                 q=["How much is the truck repair going to cost?", "What did the shop quote for the truck?"],
                 say=["shop qouted {v} for the truck", "truck repair's gonna run {v}",
                      "{mechanic} says {v} for breaks and a tie rod", "{v} to fix the truck, parts and labor"]),
            dict(id="shop", kind="place", pool="SHOPS", type="decision", topic="the repair shop",
                 q=["Where is my truck being repaired?", "Which shop has the truck?"],
                 say=["truck's at {v}", "droped the truck off at {v}", "took the truck to {v} this time"]),
            dict(id="truck_ready", kind="date", type="plan", topic="the truck pickup date",
                 q=["When will the truck be ready?", "When can I pick the truck up?"],
                 say=["truck should be ready {v}", "they'll have it done {v}", "pickup is {v} if parts show",
                      "{mechanic} figures {v}, don't hold ur breath"]),
            dict(id="rental", kind="thing", pool="RENTALS", type="decision", topic="the rental machine",
                 q=["What equipment am I renting from {yard}?", "Which machine did I rent?"],
                 say=["renting a {v} from {yard}", "got a {v} reserved at {yard}", "{yard} is holding a {v} for us"]),
            dict(id="day_rate", kind="number", num=(85, 390), fmt=["${} a day", "${} per day"], type="knowledge",
                 topic="the daily rental rate", q=["What's the daily rate on the rental?"],
                 say=["rental is {v}", "{yard} charges {v} for the machine", "day rate's {v} plus delivery"]),
        ],
        facts=[("knowledge", "truck's got a ton of miles, still the original motor"),
               ("relationship", "{mechanic} has been fixing my trucks for years, straight shooter"),
               ("decision", "not buying a new truck this year, fix it and run it"),
               ("event", "truck died on the highway {day}, had to get it towed"),
               ("plan", "gonna rent instead of buy for the big stuff, storing it is a pian"),
               ("preference", "I only rent from {yard}, they deliver when they say"),
               ("knowledge", "{yard} charges a cleaning fee if stuff comes back muddy")],
        loops=[dict(acts=["call the shop about the truck", "find out what's going on with the truck"],
                    opens=["still haven't herd from the shop on the truck", "shop's been quiet on the truck for days"],
                    done=["truck's back from the shop, runs good", "got the truck back {day}, brakes feel new"]),
               dict(acts=["get the rental back to {yard}", "return the rental before they charge another day"],
                    opens=["rental's due back at {yard} and it's still sitting on site"],
                    done=["rental's back at {yard}, they checked it in clean", "{yard} picked up the machine this am"]),
               dict(acts=["renew the truck registration", "get the registration renewed on the truck"],
                    done=["new sticker's on the plate", "registration went thru online"]),
               dict(acts=["line up a loaner pickup", "find a pickup to borrow till mine's fixed"],
                    done=["got a loaner from {mechanic} for the week", "borrowing a pickup till mine's out"])],
        asks=[("is it worth fixing a truck with this many miles",
               "Usually yes, if the frame and drivetrain are sound - a repair bill is almost always cheaper than a "
               "truck payment. Once big repairs start stacking up every few months, start shopping."),
              ("rent or buy the big equipment, what's the rule of thumb",
               "A common rule: if you'd use it for more than about half the year, owning starts to pay off; "
               "otherwise rent and let the yard eat the maintenance and storage."),
              ("check engine light came back on. of course it did",
               "Get the code read - a lot of parts stores do it for free - so you know if it's urgent or just a "
               "loose gas cap.")],
        maybe=["if I had a second truck I could split the crews easy",
               "someday I want a dump trailer, not this year though",
               "whats that tire place by the lumber yard called?"],
    ),
    dict(
        name="books and insurance", short=["the books", "insurance", "the office paperwork", "business admin"],
        ents=dict(bookkeeper="PEOPLE", agent="PEOPLE"),
        slots=[
            dict(id="premium", kind="number", num=(1400, 6800), fmt=["${}", "{} bucks"], type="decision",
                 topic="the general liability premium",
                 q=["How much is my general liability premium this year?", "What's the GL renewal going to cost?"],
                 say=["GL premium came in at {v}", "liabilty renewal is {v} for the year",
                      "{agent} says {v} for the general liability"]),
            dict(id="carrier", kind="name", pool="INSURERS", type="decision", topic="the insurance carrier",
                 q=["Which company is my liability insurance with?", "Who's my GL carrier?"],
                 say=["we're with {v} for liability", "GL is thru {v}", "carrier is {v}, {agent} set it up"]),
            dict(id="renewal", kind="date", type="plan", topic="the policy renewal date",
                 q=["When does my liability policy renew?", "What's the renewal date on the GL policy?"],
                 say=["policy renews {v}", "renewal date's {v}", "GL is up for renewal {v}"]),
            dict(id="quarterly", kind="number", num=(11, 29), fmt=["${}k", "${},000"], type="knowledge",
                 topic="the quarterly tax estimate",
                 q=["How much is the quarterly tax estimate?", "What do I owe in estimated taxes this quarter?"],
                 say=["quarterly estimate is {v}", "{bookkeeper} says we owe {v} for the quater",
                      "gotta send the tax man {v} this quarter, ouch"]),
            dict(id="cpa", kind="name", pool="PEOPLE", type="relationship", topic="my accountant",
                 q=["Who does my taxes now?", "Who's my accountant?"],
                 say=["{v} is doing my taxes this year", "my CPA is {v}", "went with {v} for the tax return"]),
        ],
        facts=[("relationship", "{bookkeeper} does my books every other friday"),
               ("relationship", "{agent} is my insurance agent, been with {agent} for years"),
               ("knowledge", "workers comp is figured off payrol, so the audit's gonna sting"),
               ("decision", "putting all the business stuff on one card so {bookkeeper} can find it"),
               ("preference", "I hate doing books, I'd rather frame in the rain"),
               ("event", "got the workers comp audit {day}, went ok"),
               ("plan", "setting money aside every week for taxes instead of panicking in april"),
               ("knowledge", "every GC I sub for wants a certificate naming them additonal insured")],
        loops=[dict(acts=["send {bookkeeper} the receipts for the quarter", "get the receipts over to {bookkeeper}"],
                    opens=["{bookkeeper} still needs my receipts, shoebox is full"],
                    done=["shoebox of receipts is with {bookkeeper}", "{bookkeeper} has all the reciepts now"]),
               dict(acts=["send the landlord a certificate of insurance", "get a COI over to property management"],
                    opens=["property management says they still don't have our COI"],
                    done=["COI went over, they confirmed", "{agent} emailed the certificate straight to them"]),
               dict(acts=["chase the overdue invoices", "call around about the late invoises"],
                    opens=["got invoices past due and nobody's paying"],
                    done=["late invoices got paid, mostly", "checks came in for the overdue ones"]),
               dict(acts=["get {agent} to quote an umbrella policy", "ask {agent} to price an umbrella policy"],
                    opens=["need {agent} to price out an umbrella policy"],
                    done=["{agent} sent the umbrella quote over", "umbrella quote's sitting in my inbox"])],
        asks=[("what's the diff between a sub and an employee for taxes",
               "Roughly: an employee works under your direction, on your schedule, with your tools; a sub runs "
               "their own business, controls how the work gets done and usually carries their own insurance. "
               "Misclassifying gets expensive, so run the borderline cases by your accountant."),
              ("is an umbrella policy worth it for a small GC",
               "For many small contractors it is - it's usually cheap relative to the coverage and kicks in when a "
               "claim blows past the GL limits. Ask your agent to quote it with the renewal."),
              ("staring at the books makes my eyes cross",
               "Totally normal. A fixed hour each week, with coffee, beats letting it pile up for a month.")],
        maybe=["if I charged what my time's worth I'd never win a bid",
               "in theory I should read the whole policy, never gonna happen",
               "what's the name of that bank that does equipment loans?"],
    ),
    dict(
        name="baseball season", short=["baseball", "{kid}'s baseball", "the season", "ball"],
        ents=dict(coach="PEOPLE", teamparent="PEOPLE"),
        slots=[
            dict(id="team", kind="thing", pool="TEAMS", type="knowledge", topic="{kid}'s team",
                 q=["What team is {kid} on this season?", "Which team did {kid} get put on?"],
                 say=["{kid} got drafted to the {v}", "{kid}'s on the {v} this year", "team is the {v}"]),
            dict(id="first_game", kind="date", type="event", topic="opening day",
                 q=["When is opening day for {kid}'s team?", "When does {kid}'s season start?"],
                 say=["opening day's {v}", "first game is {v}", "season kicks off {v}, rain or shine"]),
            dict(id="position", kind="thing", pool="POSITIONS", type="knowledge", topic="{kid}'s position",
                 q=["What position is {kid} playing?", "Where does {kid} play in the field?"],
                 say=["{kid} is playing {v}", "coach has {kid} at {v}", "{kid}s at {v} mostly"]),
            dict(id="fee", kind="number", num=(85, 260), fmt=["${}"], type="decision", topic="the registration fee",
                 q=["How much was {kid}'s baseball registration?", "What does the league charge to register?"],
                 say=["registration's {v}", "league wants {v} per kid", "{v} to sign up, plus the uniform"]),
            dict(id="carpool", kind="name", pool="PEOPLE", type="relationship", topic="{kid}'s practice carpool",
                 q=["Who's driving {kid} to practice?", "Who handles the practice carpool for {kid}?"],
                 say=["{v} is doing practice pickups", "{v} drives {kid} to practice on my work days",
                      "carpool is {v} this season"]),
        ],
        facts=[("relationship", "{coach} is head coach, yells too much but means well"),
               ("event", "{kid} hit a double {day}, I about fell off the bleachers"),
               ("preference", "I want {kid} having fun, don't care about travel ball"),
               ("plan", "trying to make every home game, gonna leave jobs early those days"),
               ("identity", "I played ball in high school, wasn't much good"),
               ("relationship", "{teamparent} runs the snack bar and knows everybody"),
               ("knowledge", "practices are weeknights at the feild behind the middle school")],
        loops=[dict(acts=["pay {kid}'s league registration", "get {kid} registered and paid up"],
                    done=["registration's paid, got the confirmation email", "{kid}'s registered, we're in"]),
               dict(acts=["get {kid} new cleats", "buy {kid} cleats that fit"],
                    opens=["{kid}'s cleats are busted, toes coming out the front"],
                    done=["{kid}'s got new cleats, already muddy", "cleats are in the trunk, sized up this time"]),
               dict(acts=["sign up for a snack week", "put us down for snack duty"],
                    opens=["{teamparent} says we still owe the team a snack week"],
                    done=["we're on the snack schedual now", "snack week's claimed"]),
               dict(acts=["patch the batting net in the backyard", "fix the busted backyard batting net"],
                    done=["net's back up, {kid} already smacked one into the fence", "backyard net is patched"])],
        asks=[("how do I help {kid} get over being scared of the ball",
               "Start with softer training balls from close range, build up slowly, and praise staying in the box "
               "more than making contact. Confidence usually comes back with reps."),
              ("ump blew a call today and I had to sit on my hands",
               "Good on you for staying quiet - kids notice how the parents act more than the call itself."),
              ("is it bad {kid} wants to quit after one rough game",
               "Pretty normal. Let it settle for a day or two, then talk about finishing the season the team is "
               "counting on.")],
        maybe=["if {kid} makes all-stars there goes my whole summer",
               "someday I'll coach, when I'm not working weekends",
               "who was that hitting coach {teamparent} brought up?"],
    ),
    dict(
        name="fishing trip", short=["the fishing trip", "the lake trip", "fishing"],
        ents=dict(buddy="PEOPLE", buddy2="PEOPLE"),
        slots=[
            dict(id="lake", kind="place", pool="LAKES", type="plan", topic="the fishing spot",
                 q=["Where are we going on the fishing trip?", "Which lake is the fishing trip on?"],
                 say=["we're hitting {v}", "trip's up at {v} this year", "{buddy} booked us a cabbin on {v}"]),
            dict(id="trip_date", kind="date", type="plan", topic="the fishing trip date",
                 q=["When do we leave for the fishing trip?", "What day does the fishing trip start?"],
                 say=["we head up {v}", "leaving for the lake {v}", "fishing trip is {v}, already blocked it off"]),
            dict(id="split", kind="number", num=(140, 480), fmt=["${} each", "${} apiece"], type="decision",
                 topic="my share of the cabin", q=["How much is my share of the fishing cabin?"],
                 say=["cabin split comes to {v}", "my cut of the cabin is {v}", "{buddy} says it's {v} for the cabin"]),
            dict(id="species", kind="thing", pool="FISH", type="preference", topic="the target fish",
                 q=["What are we fishing for on the trip?", "What species are we going after?"],
                 say=["going after {v} mostly", "we're targeting {v}", "{buddy2} wants {v}, so that's the plan"]),
            dict(id="tow", kind="name", pool="PEOPLE", type="plan", topic="the boat tow",
                 q=["Who's towing the boat up for the fishing trip?"],
                 say=["{v} is towing the boat", "{v}'s pulling the boat up", "boat rides behind {v}'s truck"]),
        ],
        facts=[("relationship", "{buddy} and I been going every year since high school"),
               ("event", "last year we got skunked, not a single fish"),
               ("decision", "no phones on the boat, that's the rule"),
               ("preference", "I'd rather fish at dawn and nap all afternoon"),
               ("knowledge", "cabin's got no cell service, gotta use the phone at the bait shop"),
               ("plan", "we'll fry up whatever we cath the last night"),
               ("relationship", "{buddy2} is new this year, {buddy}'s brother-in-law")],
        loops=[dict(acts=["buy my fishing license", "get the fishing license sorted"],
                    done=["lisence is printed and in the tackle box", "got my license online last night"]),
               dict(acts=["fix the trailer lights", "get the boat trailer lights working"],
                    opens=["trailer lights still dont work, cops'll pull us over"],
                    done=["trailer lights work now, was a bad ground", "lights on the trailer are good"]),
               dict(acts=["clear the trip with {spouse}", "ask {spouse} about the fishing weekend"],
                    opens=["haven't told {spouse} about the trip yet"],
                    done=["{spouse} said go, just be back sunday for dinner", "{spouse}'s fine with it"]),
               dict(acts=["respool the reels", "put new line on the reels"],
                    done=["reels got new line", "fresh line on everything"])],
        asks=[("how do I keep fish fresh on a long drive home",
               "Bleed and gut them soon after catching, and keep them on plenty of ice in a cooler with the drain "
               "open so they're not sitting in meltwater."),
              ("what's a good knot that doesn't slip with braid",
               "The palomar is easy and strong with braided line - double the line, tie an overhand, pass the loop "
               "over the lure, wet it and snug it down."),
              ("need this trip bad, been a long month",
               "Sounds well earned. A few days on the water with no phone might be exactly the reset.")],
        maybe=["if I had a bigger boat we'd bring the kids too",
               "someday I wanna do a fly-in trip way up north",
               "which jig was it that worked last time?"],
    ),
    dict(
        name="little sister's wedding", short=["the wedding thing", "{sis} and {fiance}'s wedding", "wedding junk"],
        ents=dict(fiance="PEOPLE"),
        slots=[
            dict(id="venue", kind="place", pool="WEDDING_VENUES", type="plan", topic="{sis}'s wedding venue",
                 q=["Where is {sis}'s wedding?", "What venue did {sis} book?"],
                 say=["ceremony and reception are both at {v}", "{sis} booked {v}", "they're getting married out at {v}"]),
            dict(id="sis_date", kind="date", type="event", topic="{sis}'s wedding date",
                 q=["When does {sis} get married?", "What day is {sis} getting married?"],
                 say=["{sis} gets married {v}", "{sis} and {fiance} set it for {v}", "big day is {v}"]),
            dict(id="suit", kind="thing", pool="SUITS", type="preference", topic="my outfit for the wedding",
                 q=["What am I wearing to {sis}'s wedding?"],
                 say=["I'm wearing a {v}", "{sis} wants me in a {v}", "going with the {v}, {sis} approved"]),
            dict(id="gift", kind="number", num=(150, 600), fmt=["${}"], type="decision", topic="the wedding gift budget",
                 q=["What's the budget for {sis}'s wedding gift?"],
                 say=["budget for {sis}'s gift is {v}", "we'll spend {v} on the gift", "{spouse} and I said {v} for the gift"]),
            dict(id="officiant", kind="name", pool="PEOPLE", type="relationship", topic="the officiant for {sis}'s wedding",
                 q=["Who is officiating {sis}'s wedding?"],
                 say=["{v}'s officiating, believe it or not", "{v} got ordaned online to do the ceremony", "officiant is {v}"]),
        ],
        facts=[("relationship", "{sis} is my little sister, baby of the family"),
               ("relationship", "{fiance} is a good one, works for the railroad"),
               ("decision", "I'm building the arch for the ceremony, that's my gift on top of the gift"),
               ("event", "met {fiance}'s famly {day}, big loud bunch, loved it"),
               ("preference", "I don't dance. not happening"),
               ("plan", "giving a toast, keeping it under a few minutes"),
               ("knowledge", "half of {fiance}'s family is driving up from Monterrey"),
               ("identity", "I'm the oldest so I'm walking {sis} down the aisle")],
        loops=[dict(acts=["get fitted for the wedding", "go get measured for the suit"],
                    done=["measurements are in at the suit place", "got measured {day}, pickup the week of"]),
               dict(acts=["write my toast", "get the toast written"],
                    opens=["toast for {sis}, haven't wrote a word"],
                    done=["toast is written, kept it short", "toast is on an index card in my wallet"]),
               dict(acts=["build the ceremony arch", "finish the cedar arch for the ceremony"],
                    done=["arch is built and staind, sitting in the shop", "cedar arch is finished, {sis} cried"]),
               dict(acts=["book a hotel room for the wedding", "get a room near the venue"],
                    done=["we got a room at the inn down the road from the venue", "hotel's booked for wedding weekend"])],
        asks=[("how long should a wedding toast be",
               "Short - a story or two about the couple, a warm line about the new spouse, then raise the glass. If "
               "it fits on an index card you're in good shape."),
              ("how do I build a wood arch that won't tip in the wind",
               "Give the legs wide feet or stake them into the ground with rebar sleeves, and add a low cross brace "
               "on each side. Sandbags hidden under fabric work on hard surfaces."),
              ("my little sister getting married, feels weird man",
               "That's a big moment - a bit of weirdness is just how much you care showing up.")],
        maybe=["if {sis} had eloped I'd have saved a fortune on the suit",
               "in theory I should learn to dance before the wedding. not gonna",
               "what band did {fiance} want again?"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "correction on {topic}: {v}, not {old}", (), "any"),
    ("explicit", "fix that - {topic} is {v}", (), "any"),
    ("explicit", "what I gave you for {topic} was off. {Say}", (), "any"),
    ("actually", "actually it's {v} for {topic}", (), "any"),
    ("actually", "nah actually, {say}", (), "same"),
    ("misspoke", "my bad, fat-fingered that. {Say}", (), "same"),
    ("misspoke", "typo, meant {v}", (), "same"),
    ("misspoke", "wrong one earlier, {say}", (), "any"),
    ("change", "plan chnaged, {say}", (), "later"),
    ("change", "switched it up - {say}", (), "later"),
    ("change", "went with {v} instead", ("name", "thing", "place"), "later"),
    ("moved", "{topic} got bumped out to {v}", ("date",), "later"),
    ("moved", "{topic} slid to {v}, of course", ("date",), "later"),
    ("moved", "moved {topic} over to {v}", ("date", "place"), "later"),
    ("is-now", "{topic}'s {v} now, not {old}", (), "later"),
    ("is-now", "{topic} is {v} as of today", (), "later"),
    ("scratch", "scratch the {old}, {say}", (), "same"),
    ("scratch", "forget what I said on {topic}, {say}", (), "any"),
    ("implicit", "{Say}, fyi", (), "later"),
    ("implicit", "talked to em this am. {Say}", (), "later"),
    ("implicit", "so yeah, {say}", (), "later"),
    ("implicit", "{Say}. don't ask, long story", (), "later"),
    ("implicit", "heard back - {say}", (), "later"),
    ("updated", "update on that one: {say}", (), "later"),
    ("updated", "{topic} went from {old} to {v}", (), "later"),
    ("updated", "final number on {topic} came back {v}", ("number",), "later"),
]

LOOP_OPEN = ["gotta {act} {due} or I'm toast", "need to {act} {due} somehow", "I'll {act} {due}, no excuses", "bug me {due} to {act}",
             "nudge me {due}, I gotta {act}", "on my plate this wk: {act}", "list for this wk: {act}, plus whatever blows up",
             "keep track for me, I hafta {act}", "dont let me forget - {act} {due}", "still gotta {act}",
             "told the guys I'd {act} {due}", "suposed to {act} {due}", "add '{act}' to my list",
             "ping me {due} so I {act}", "gota {act} before it bites me"]
DUES = ["by friday", "tmrw", "sometime this wk", "by thurs night", "first thing monday", "before end of day", "by wed",
        "before the next payday", "this wknd"]

ACK = ["Copy, thanks.", "Okay, noted it.", "Alright, noted.", "Okay, got that.", "That tracks, noted.", "Understood, thank you.",
       "Good to know, thanks.", "Okay - logged it.", "Sounds right.", "Okay. Anything else on that one?"]
ACK_VALUE = ["Okay, {topic}: {v}.", "Logged {v} for {topic}.", "Got it, {v}.", "{v} - noted for {topic}."]
ACK_CHANGE = ["Okay, so {topic} is {v} now.", "Swapped it: {v} in place of {old}.", "Got it - {old} is out, {v} is in.",
              "Updated to {v}."]
ACK_TODO = ["It's on the list.", "Okay, I'll track that.", "Added it.", "Got it, that's on your list now."]
ACK_DONE = ["Good, crossed off.", "Nice - that's one off the list.", "Great, marked it closed.",
            "Perfect, checking that off."]

OPENERS = ["yo", "ok quick one", "back at it", "on a break", "hey, {short} again", "u got a sec",
           "sitting in the truck, got a few min", "long day", "mornin", "quick thing on {short}", "lunch break, lets go",
           "ok where was I", "need to dump some stuff on you", "órale, {short}"]
GREETINGS = ["Hey {me}, go ahead.", "I'm here - what's up?", "Morning, {me}.", "Shoot.", "Go for it, {me}.",
             "Hi {me}, what do you need?"]
CLOSERS = ["ok back to work", "thx", "gotta go, inspector's here", "k that's it", "good, later", "alright, gracias"]
GOODBYES = ["Talk later, {me}.", "Good luck out there.", "Anytime.", "Stay safe on site.", "Catch you on the next break."]
FILLERS = [("k", "Okay then."), ("hold on, sub calling", "Sure, take the call."), ("brb", "No worries, go."), ("lol", "Ha, okay."),
           ("yup", "Good stuff."), ("ok lost my train of thought", "Last thing was {short}."), ("gracias", "De nada!"),
           ("hmm", "Whenever you're ready.")]
RECAP_ASKS = ["where are we on {short}?", "give me the rundown", "quick status on {short}?", "sum it up for me"]
RECAP_TODO = ["Open items - {todo}", "Still on your plate - {todo}", "To do: {todo}"]
RECAP = ["Rundown on {short}: {body}.", "Here's where it stands - {body}.", "Status - {body}.", "Short of it: {body}."]
LEADS = ["{short} update: ", "ok {short} news - ", "fyi, ", "heads up - ", "for ur records - ", "so "]
LOWER_OK = (r"(?:The|Our|My|So|Ok|Gotta|Gota|Need|Still|Got|Fyi|Heads|Hit|Ping|Bug|Nudge|On|Truck|Crew|Permit|"
            r"Update|Switched|Plan|Suposed|Told|Keep|Add|Dont|List|Fix|Typo|Heard|Talked|Nah|Forget|Scratch)\b")
JOINERS = [" also, ", " oh, and ", " and then ", " plus "]

PERSONAL = [("identity", "I run a small outfit out of {town}, me and {few} guys"),
            ("identity", "started out framing, got my contractors lisense later"),
            ("relationship", "{spouse} does the invoicing some nights after the kids are down"),
            ("relationship", "{sis} is the youngest in my family, the one getting hitched"),
            ("relationship", "{kid} is my oldest, baseball crazy"),
            ("preference", "keep it short, I'm reading this in the truck"),
            ("preference", "text only before lunch, can't hear the phone on site"),
            ("preference", "don't send me salad places, I'm a burger and tacos guy"),
            ("relationship", "{dog} rides shotgun to every job"),
            ("identity", "grew up in {town}, never left"),
            ("event", "threw my back out last week moving a vanity"),
            ("identity", "my dad was a mason and so was his dad")]

CHITCHAT = [("gas station coffee tastes like burnt tires today", "Might be time to keep a thermos in the truck."),
            ("my knees are shot from kneeling on tile all day", "Good gel knee pads help a lot, plus a foam pad for "
             "the long stretches."),
            ("what's a good work boot that doesn't wreck your feet", "Look for a wide toe box and a removable insole "
             "you can swap for a better one, and break them in on a light week."),
            ("it's brutal hot on site today", "Drink more water than feels necessary and get everyone in the shade "
             "at lunch."),
            ("any good podcasts for the drive between jobs", "History and true crime shows are popular for long "
             "drives; a comedy interview show if you want something light."),
            ("ate gas station burritos for lunch, regret", "Ha. Maybe pack leftovers tomorrow."),
            ("why does every sub say they'll be there early and show up after lunch", "Everyone's juggling "
             "too many jobs. A confirm-the-night-before text helps a little."),
            ("best thing to get grease off your hands?", "Dish soap with a little sugar as a scrub works, or a "
             "citrus hand cleaner with pumice."),
            ("hit me with a fun fact, stuck in traffic", "The paint color on the Golden Gate Bridge has an official name: International Orange."),
            ("spanish word of the day?", "'Andamio' - scaffold. Handy on site."),
            ("dog got into my lunch in the truck", "Sounds like {dog} owes you a sandwich."),
            ("whats a quick dinner, fridge is empty", "Eggs and tortillas - scramble with whatever's left, add "
             "salsa, done fast."),
            ("cant sleep, thinking about scheduels", "Write tomorrow's list down on paper so your head can let "
             "go of it, then try again."),
            ("rain day. sent the whole crew home", "Good day for estimates and invoices, if you can stand it."),
            ("game last night went to overtime, couldn't look away", "Those are the best ones - rough on sleep "
             "though."),
            ("my back is killing me", "A heat pad tonight and some easy stretching might help; if it hangs on, "
             "get it checked."),
            ("how do I get paint out of jeans", "Latex and still wet: soap and water. Dried: rubbing alcohol and a "
             "stiff brush."),
            ("whats a good truck snack", "Jerky, trail mix, bananas - things that don't melt on the dash."),
            ("qué onda", "¡Todo bien! What's going on?"),
            ("radio on site plays the same songs all day", "Might be time to let someone else pick the station "
             "for a week.")]
REQUESTS = [("write a text to {stranger} at {org} saying the delivery for {day} needs to get pushed, we aren't "
             "ready for {n} sheets yet",
             "Hi {stranger}, can we push {day}'s delivery? We're not ready for the {n} sheets yet - I'll confirm a "
             "new day as soon as we are. Thanks, {me}"),
            ("make this sound less pissed: '{stranger}, {org} still owes me ${big} and it's been {n} days'",
             "'Hi {stranger}, following up on the ${big} balance with {org} - it's now {n} days outstanding. Could "
             "you let me know when to expect payment? Thanks.'"),
            ("translate to spanish for the crew: 'need {few} more guys on saturday'",
             "'Necesito {few} trabajadores más el sábado.'"),
            ("summarise: '{org} bid came in at ${big} per unit for {n} units, {stranger} wants an answer by {day}'",
             "{org} bid ${big} a unit for {n} units; {stranger} needs your answer by {day}."),
            ("proofread: 'Dear {stranger}, atached is the invoce for {n} hours of labor'",
             "'Dear {stranger}, attached is the invoice for {n} hours of labor.' - 'attached' and 'invoice' were "
             "misspelt."),
            ("draft a quick thank-you to {stranger} at {org} for sending me a referral",
             "Hi {stranger}, thanks for passing my name along - I really appreciate it and will take good care of "
             "them. If {org} ever needs a hand, just call. {me}"),
            ("list what to check on a {few}-year-old used pickup befor I buy it",
             "Frame rust, fluid leaks, how it shifts cold and warm, tire wear (uneven means alignment or "
             "suspension), the tow hitch area, and a code scan; pull the service history if they have it."),
            ("write an ad for selling {n} leftover boxes of floor tile, cheap",
             "For sale: {n} boxes of leftover floor tile, unopened, from a recent job. Cheap - make an offer. "
             "Pickup only, text {me}."),
            ("explain a conditional vs unconditional lien waiver, short",
             "Conditional: it only takes effect once the payment actually clears. Unconditional: it waives your "
             "lien rights right away, paid or not - only sign that one after the money's in the bank."),
            ("help me say no to {stranger}, who wants a deck built for ${big} total",
             "Hey {stranger}, appreciate you calling me first. At ${big} I can't do the deck justice, so I'll have to pass "
             "- happy to recommend someone if that helps.")]
DISTRACTORS = ["if I had a second truck I'd take on {few} more jobs a year",
               "what was that timesheet app called again?",
               "should prob get a will done someday, not this year",
               "already paid the propane bill",
               "would be nice if the county awnsered a phone for once",
               "could clean out the shop this weekend, or I could go fishing",
               "in theory I should stretch before work lol",
               "someday I wanna build my own house from the slab up"]
UNSURE = ["Don't think you've told me that.", "Haven't heard that one from you, so I can't say.",
          "Not sure, that hasn't come up.", "No clue - it never came up."]
SHRUG = ["Fair point, ha.", "Yep.", "Can't blame you there.", "Sounds about right.", "Heh, true."]
SUGGEST = [("what am I forgetting here?", "Maybe text your subs the schedule for {day} tonight so nobody shows up to a "
            "locked site."),
           ("thoughts on that?", "One idea: get it in writing before anyone starts - a quick email confirming scope saves "
            "fights later."),
           ("what would you do", "I'd block an hour on {day} morning, before the site gets busy, and knock it out."),
           ("anything else?", "You could keep a running list for this on your phone - I can start one if you want.")]
