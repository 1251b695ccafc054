"""Phrase bank 'terse'. A person who texts their assistant: short, casual, lowercase, abbreviations, dropped
subjects and the odd misspelling written straight into the templates. Written independently of every other
bank (gen.py --check verifies no shared names, sentences or 6-word runs). Placeholders: {v}/{old} slot values,
{say} a filled slot phrasing, {topic}, thread entities, {me} the user, {n}/{n2}/{big}/{few} fresh numbers,
{day}, {due}, {act}, {stranger}/{org} (one-off requests only)."""

NAME = "terse"

USERS = ["Haruka Moriyama", "Minseo Kang", "Zuzana Pokorná", "Bartosz Wiśniewski", "Yuki Ishida", "Jaehyun Seo",
         "Kateřina Dvořáková", "Maciej Lewandowski", "Aya Fujimoto", "Hyejin Yoon", "Radim Malý",
         "Natalia Krawczyk", "Shota Nakamura", "Soyeon Han", "Milena Svobodová", "Daisuke Arai"]

PEOPLE = ["Aiko", "Haruto", "Sora", "Ren", "Mei", "Daichi", "Hina", "Takumi", "Emi", "Kaito", "Riku", "Nanami",
          "Minji", "Jiwoo", "Seojin", "Hyunwoo", "Eunji", "Taeyang", "Yuna", "Sungmin", "Dohyun", "Bora",
          "Kasia", "Marek", "Agnieszka", "Bartek", "Zofia", "Wojtek", "Magda", "Kuba", "Piotr", "Gosia", "Tomek",
          "Ania", "Tereza", "Ondřej", "Petra", "Vojta", "Lucie", "Radek", "Zdeněk", "Honza", "Klára", "Jitka",
          "Šárka"]
STRANGERS = ["Mr. Sasaki", "Dr. Hwang", "Mrs. Kowalska", "Ing. Novotný", "Ms. Takeda", "Mr. Ryu", "Jolanta Wrona",
             "Hiroshi Kondo", "Mr. Baek", "Dr. Šimek", "Mrs. Nakagawa", "Władysław Mazur"]
ORGS = ["Greyhaven Broadband", "Larkspur Insurance", "Oxbow Credit Union", "Tallow & Finch Solicitors",
        "Mossgate Water", "Quayside Dental", "Brookmere Council", "Cinderpath Gym", "Parcelwise Couriers"]

# moving flat
MOVERS = ["Boxhaul Removals", "Two Hands Moving", "Crate & Carry", "Nimbus Movers", "Stepstone Removals",
          "Otter Van Co", "Packwell Movers", "Lugworth Removals"]
STREETS = ["Malthouse Lane", "Quarry Road", "Tannery Row", "Orchard Terrace", "Ferrier Street", "Gasworks Yard",
           "Bellfounder Close", "Coldharbour Mews"]
# wedding
WEDDING_VENUES = ["Hawthorn Barn", "Millbrook Orangery", "Sedgewick Abbey Gardens", "The Old Ropery",
                  "Kingfisher Boathouse", "Fallowfield Hall", "Lantern Yard", "Juniper Court Estate"]
CATERERS = ["Saltbox Kitchen", "Fig & Ferment", "Greenhalgh Catering", "Little Cauldron Co",
            "Ember & Oak Catering", "Pantry Row", "Mallow Street Kitchen"]
# used car
CARS = ["Dalmar Estate", "Hoshino Pixie", "Brenner Rook", "Kestle Ramble", "Orlik Hatch", "Sakai Breeze",
        "Ventra Corvo", "Mirabel Tourer"]
INSURERS = ["Shieldfern Insurance", "Coverly Motor", "Bluegate Cover", "Ironbark Insure", "Northstep Motor",
            "Puffin Car Insurance", "Wayfarer Mutual"]
GARAGES = ["Sprocket Lane Garage", "Fenwick Autos", "Blackbird Motors", "Lowgate Service Centre",
           "Trusty Spanner Garage"]
# print shop
SHOPNAMES = ["Inkwell & Moth", "Little Tram Press", "Quiet Harbour Prints", "Paperfox Studio", "Gull & Lantern"]
PRINTLABS = ["Riso Republic", "Grainhouse Print", "Halftone Lab", "Stonecopy"]
PLATFORMS = ["Stallbox", "Makerlane", "Craftquay", "Printnest", "Bazaarly", "Handmart", "Kiosko"]
PRINTS = ["Heron at Dusk", "Blue Tram", "Harbour Fog", "Night Bakery", "Paper Lanterns", "Tidal Steps",
          "Moth Garden", "Rooftop Cats"]
# grant
FUNDERS = ["Aldermoor Trust", "Northlight Foundation", "Wrenfield Fund", "Civic Futures Council",
           "Hallam & Pike Foundation", "Brightwater Arts Fund"]
PROJECTS = ["Listening to Rivers", "Small Towns, Loud Archives", "Kitchen Table Histories", "Maps of the Unbuilt",
            "Bridges After Dark", "Songs from the Night Shift", "The Quiet Commons"]
# allotment
SOCIETIES = ["Fernside Allotment Society", "Kiln Lane Growers", "Eastbrook Allotments", "Millrace Gardeners"]
CROPS = ["borlotti beans", "purple sprouting broccoli", "crown prince squash", "rainbow chard", "cavolo nero",
         "shallots", "sweetcorn", "broad beans"]
# personal
HOMETOWNS = ["Brno", "Gdańsk", "Sapporo", "Busan", "Wrocław", "Olomouc", "Kanazawa", "Daegu"]
EMPLOYERS = ["Tessellate Labs", "Harrowgate Health", "Pinfold Logistics", "Quillon Studio"]
PETS = ["Pierogi", "Kimchi", "Knedlík", "Udon", "Bazyl", "Kokoro"]

PERSONAL_ENTS = dict(partner="PEOPLE", cousin="PEOPLE", city="HOMETOWNS", employer="EMPLOYERS", pet="PETS")

THREADS = [
    dict(
        name="moving flat", short=["move stuff", "the flat move", "moving", "the new flat"],
        ents=dict(landlord="PEOPLE", oldlandlord="PEOPLE", agent="PEOPLE", helper="PEOPLE"),
        slots=[
            dict(id="move_day", kind="date", type="plan", topic="the move-in date",
                 q=["When is my moving day?", "What date am I moving into the new flat?", "When do we move flats?"],
                 say=["move-in is {v}", "we move in {v}", "keys handover + move on {v}", "booked the move for {v}",
                      "{v} is the big day - flat move", "def moving {v}, {landlord} confirmed",
                      "gettin the keys {v} and moving same day", "we're out of the old place and into the new one {v}"]),
            dict(id="rent_pcm", kind="number", num=(950, 2300), fmt=["£{} pcm", "£{} a month", "£{} per month"],
                 type="decision", topic="the flat's monthly rent",
                 q=["How much is the rent on the new flat?", "What's my monthly rent going to be?"],
                 say=["rent's {v}", "new place is {v} all in", "agreed {v} w/ {landlord}",
                      "{landlord} wants {v}, bills not incl", "rent came out at {v}, ouch", "signing at {v}",
                      "we'll be paying {v} for the flat"]),
            dict(id="new_street", kind="place", pool="STREETS", type="plan", topic="the new flat's street",
                 q=["What street is the new flat on?", "Where's the new flat?"],
                 say=["new flat's on {v}", "the place on {v} is ours", "we got the one on {v}!!",
                      "adress for the new place is {v}", "it's a top floor flat on {v}",
                      "{v} - thats where we're heading", "signed for a flat on {v}"]),
            dict(id="mover_co", kind="name", pool="MOVERS", type="decision", topic="the removal company",
                 q=["Which removal company is doing the move?", "Who did I book as movers?"],
                 say=["went w/ {v} for the van + crew", "{v} got the job for the move", "booked {v}, they seemed least sketchy",
                      "movers = {v}", "{v} r moving us", "hired {v} to shift all our junk"]),
            dict(id="deposit", kind="number", num=(1100, 3600), fmt=["£{}", "£{:,}"], type="knowledge",
                 topic="the deposit on the flat",
                 q=["How big is the deposit on the new flat?", "What deposit did we pay for the flat?"],
                 say=["deposit is {v}", "had to put down {v} up front", "{landlord} is holding {v} as deposit",
                      "deposit came to {v}, in the protection scheme apparently", "{v} deposit, gulp"]),
        ],
        facts=[("relationship", "landlord for the new place is {landlord}, seems chill so far"),
               ("decision", "selling the old sofa instead of dragging it up the stairs"),
               ("event", "viewed the flat again on {day} - the damp patch is just an old stain thank god"),
               ("knowledge", "no lift in the new building, {few} flights of stairs"),
               ("plan", "{pet} is staying w/ {cousin} over move weekend so nobody gets stressed"),
               ("preference", "want the kitchen packed last, i basically live on toast"),
               ("relationship", "{agent} at the letting agency is the one to chase for anything"),
               ("decision", "{partner} and i are splitting the rent by income, not down the middle"),
               ("event", "{oldlandlord} already did the checkout walkround at the old place, no drama")],
        loops=[dict(acts=["give notice to {oldlandlord}", "send {oldlandlord} my notice letter"],
                    opens=["{oldlandlord} still hasnt had my notice and the clock is ticking"],
                    done=["{oldlandlord} emailed back confirming my last day", "old landlord's acknowledged the end date, all official"]),
               dict(acts=["get broadband booked for the new flat", "sort the internet at the new place"],
                    opens=["still no broadband booked for the new place...", "wifi at the new flat = nonexistent rn, nobody's set it up"],
                    done=["router arrived, engineer comes the day after we move", "internet's live at the new flat, speeds r decent"]),
               dict(acts=["update my address with the bank", "change my adress at the bank"],
                    opens=["bank still thinks i live at the old place"],
                    done=["bank has the new address on file now", "statements r going to the new place from next month"]),
               dict(acts=["take meter readings on move day", "photograph the meters when we get the keys"],
                    done=["gas + elec readings are snapped and saved", "meter pics are on my phone, sent em to the supplier"])],
        asks=[("any tips for packing a kitchen w/o breaking everything?",
               "Wrap glasses in socks or tea towels, stand plates on their edges rather than flat, and keep a box of "
               "essentials - kettle, mugs, a pan, a knife - to open first at the new place."),
              ("how early shd i book movers usually",
               "About a month ahead is comfortable. Month-end dates and Saturdays get snapped up first, so go earlier "
               "if you're moving on one of those."),
              ("so many boxes. sooo many boxes", "That's the stage where it feels endless. Labelling every box with the "
               "room it's going to makes the unpacking end far less chaotic.")],
        maybe=["if we'd taken the bigger flat we'd need a whole nother sofa lol",
               "wonder if ppl actually unpack everything in the first week or is that a myth",
               "what do u call the thing where they inspect the flat when you leave again?"],
    ),
    dict(
        name="getting married", short=["our wedding", "wedding admin", "wedding prep", "the big day"],
        ents=dict(planner="PEOPLE", bestie="PEOPLE", mil="PEOPLE", photog="PEOPLE"),
        slots=[
            dict(id="wedding_day", kind="date", type="plan", topic="the big day's date",
                 q=["When is the wedding?", "What's our wedding date?"],
                 say=["wedding's on {v}", "we're getting married {v}!!", "the big day is {v}",
                      "{v} - locked in for the wedding", "{partner} + me, {v}, it's happening", "date's set: {v}",
                      "wedding is definately {v}"]),
            dict(id="guest_count", kind="number", num=(40, 190), fmt=["{} guests", "{} people", "{}"],
                 type="knowledge", topic="the headcount",
                 q=["How many people have we invited to the wedding?", "What's the wedding guest count?"],
                 say=["guest list is at {v}", "we're inviting {v}", "{v} on the list rn", "headcount for the wedding: {v}",
                      "somehow we're at {v}", "{planner} has us down for {v}"]),
            dict(id="ceremony_venue", kind="place", pool="WEDDING_VENUES", type="plan", topic="the wedding venue",
                 q=["Where's the wedding being held?", "What venue is the wedding at?"],
                 say=["venue is {v}", "we booked {v}!!", "ceremony + party both at {v}",
                      "put the holding fee down at {v}", "it's gonna be {v}, we fell in love w/ it",
                      "getting hitched at {v}"]),
            dict(id="caterer", kind="name", pool="CATERERS", type="decision", topic="the catering co",
                 q=["Which caterer are we using for the wedding?", "Who's doing the food at the wedding?"],
                 say=["{v} on food duty", "catering = {v}", "went w/ {v} for catering, the tasting was unreal",
                      "{v} r catering", "we signed w/ {v} for food"]),
            dict(id="officiant", kind="name", pool="PEOPLE", type="relationship", topic="the officiant",
                 q=["Who's marrying us?", "Who is officiating the wedding?"],
                 say=["{v} is officiating", "{v} agreed to marry us!", "our officiant is {v}",
                      "asked {v} to do the ceremony and they said yes", "{v}'s gonna lead the ceremony"]),
        ],
        facts=[("relationship", "{bestie} is my maid of honour, obvs"),
               ("decision", "no kids at the wedding except the nieces"),
               ("preference", "want a live band not a dj, {partner} finally gave in"),
               ("event", "{mil} cried when we told her the plan, the good kind of crying i think"),
               ("relationship", "{planner} is our wedding planner - total lifesaver"),
               ("knowledge", "venue needs everyone out by midnight, no exceptions"),
               ("decision", "writing our own vows, no religious bits"),
               ("plan", "honeymoon is gonna be a road trip, nothing fancy"),
               ("event", "dress fitting on {day} went fine, needs taking in a bit")],
        loops=[dict(acts=["send out the save the dates", "get the save-the-dates in the post"],
                    opens=["save the dates are sitting in a box on my desk unsent..."],
                    done=["cards went out, already got {few} replies", "the little cards are w/ royal mail now, every last one"]),
               dict(acts=["lock in a photographer", "book {photog} to shoot the wedding"],
                    opens=["still havent heard back from {photog} about photos", "no photographer yet and ppl keep asking"],
                    done=["{photog} sent the contract back signed", "we have a photographer!! {photog}'s confirmed"]),
               dict(acts=["get the rings resized", "take the rings in to be resized"],
                    done=["picked up the rings, they fit now", "rings came back from the jeweller, perfect fit"]),
               dict(acts=["get the seating plan ok'd by {mil}", "run the seating chart past {mil}"],
                    opens=["need {mil} to ok the seating plan b4 it goes to the venue"],
                    done=["{mil} approved the tables, miracles happen", "who sits where is final, {mil} is happy"])],
        asks=[("how do ppl word 'no kids' on invites w/o sounding mean",
               "Something like \"We love your little ones, but we've chosen to make our celebration adults-only\" "
               "keeps it warm and clear. Put it on the website and the invitations, not just by word of mouth."),
              ("whats a realistic timeline for sending invites",
               "Save-the-dates around half a year out, formal invitations roughly a couple of months before, and an "
               "RSVP cut-off about a month ahead of the day so the caterer gets final numbers."),
              ("everyone has OPINIONS about this wedding and i'm so tired",
               "That's exhausting. It can help to agree with your partner on the handful of things that are "
               "non-negotiable, then let people weigh in on the rest.")],
        maybe=["if we eloped we'd save like half the budget, tempting tbh",
               "should we even do favours? does anyone keep them",
               "my cousin's wedding was years ago and ppl still talk about the awful dj"],
    ),
    dict(
        name="used car", short=["the car hunt", "car shopping", "the car", "the used car search"],
        ents=dict(mechanic="PEOPLE", seller="PEOPLE", garage="GARAGES"),
        slots=[
            dict(id="car_budget", kind="number", num=(4, 15), fmt=["£{}k", "£{},000"], type="decision",
                 topic="my car budget",
                 q=["What's my budget for the car?", "How much can I spend on the used car?"],
                 say=["budget for the car is {v} max", "cant go over {v} for the car", "capping it at {v}",
                      "{v} is the absolute ceiling", "car fund is {v}", "spending {v} tops on a car"]),
            dict(id="car_model", kind="thing", pool="CARS", type="decision", topic="the car I'm going for",
                 q=["Which car model am I buying?", "What car did I settle on?"],
                 say=["leaning hard towards the {v}", "going for the {v}", "it's gonna be the {v}",
                      "found a used {v} that ticks every box", "the {v} is the one", "set on the {v} now after all that"]),
            dict(id="mileage", kind="number", num=(28, 140), fmt=["{}k miles", "{},000 miles"], type="knowledge",
                 topic="the mileage on it",
                 q=["How many miles are on the car I'm looking at?", "What's the mileage on the car?"],
                 say=["it's done {v}", "clock says {v}", "{v} on it, not terrible", "mileage is {v}",
                      "{seller} says {v} on the clock"]),
            dict(id="viewing", kind="date", type="event", topic="the test drive",
                 q=["When is my test drive?", "When am I going to see the car?"],
                 say=["test drive is {v}", "going to see it {v}", "{seller} can do {v} for a test drive",
                      "booked a viewing for {v}", "drivin it {v} if the weather holds"]),
            dict(id="insurer", kind="name", pool="INSURERS", type="decision", topic="my car insurer",
                 q=["Who am I insuring the car with?", "Which insurance company did I pick for the car?"],
                 say=["insurance is w/ {v}", "going w/ {v} for cover", "{v} came in cheapest so theyre it",
                      "signed up w/ {v}", "cover's thru {v}"]),
        ],
        facts=[("decision", "no diesel, not doing that again"),
               ("preference", "want a manual, autos feel wierd to me"),
               ("relationship", "{mechanic} at {garage} said he'll look over anything i'm serious about"),
               ("event", "test drove a dodgy one on {day} - brakes squealed the whole way"),
               ("knowledge", "boot has to fit {pet}'s crate, non negotiable"),
               ("identity", "havent owned a car since uni tbh"),
               ("relationship", "{seller} is selling it privately, seems legit"),
               ("plan", "paying by bank transfer on collection, not cash")],
        loops=[dict(acts=["get {mechanic} to look the car over", "have {mechanic} give it a once-over"],
                    opens=["need {mechanic} to check it b4 i hand over any money"],
                    done=["{mechanic} went over it - says it's solid, just needs tyres", "car passed {mechanic}'s inspection, only small stuff"]),
               dict(acts=["run a history check on the reg", "check the car's history report"],
                    done=["no finance owing and never written off, all clear", "the reg came back clean, no dodgy past"]),
               dict(acts=["transfer the deposit to {seller}", "send {seller} the holding deposit"],
                    opens=["{seller} is waiting on money from me to hold it"],
                    done=["{seller} has the money, got a reciept by text", "holding payment landed w/ {seller}, car's reserved"]),
               dict(acts=["cancel the car club membership", "quit the car share thing"],
                    done=["car club account's closed, last bill next month", "no more car sharing, membership ended"])],
        asks=[("what shd i look for on a test drive",
               "Start it from cold, listen for knocks, check where the clutch bites, brake firmly once, and try every "
               "electric thing - windows, aircon, lights."),
              ("is it normal for private sellers to want cash?",
               "It's common, but a bank transfer leaves a record. Meet at the address on the logbook, and don't pay "
               "until you've seen the documents."),
              ("car listings all look the same after a while lol",
               "They really do. Narrowing it down to three must-haves and ignoring everything else makes the "
               "scrolling a lot shorter.")],
        maybe=["if i got an electric one i'd need somewhere to charge it, which... no",
               "wonder if anyone actually haggles at dealerships anymore",
               "sold my old hatchback years back, still miss it sometimes"],
    ),
    dict(
        name="print shop", short=["the shop", "shop stuff", "{shop}", "the print shop"],
        ents=dict(shop="SHOPNAMES", lab="PRINTLABS", packer="PEOPLE", stockist="PEOPLE"),
        slots=[
            dict(id="print_price", kind="number", num=(18, 75), fmt=["£{}"], type="decision",
                 topic="the large print price",
                 q=["How much do I charge for a large print?", "What's the price of the big prints in {shop}?"],
                 say=["large prints are {v}", "pricing the big ones at {v}", "charging {v} per large print",
                      "{v} for a big print, felt right", "settled on {v} for the large prints"]),
            dict(id="platform", kind="name", pool="PLATFORMS", type="decision", topic="the shop platform",
                 q=["Which platform is {shop} selling on?", "Where is my shop hosted?"],
                 say=["shop runs on {v}", "selling thru {v}", "{shop} lives on {v}", "{v} is where the shop is",
                      "set up {shop} on {v}, fees are ok"]),
            dict(id="drop_date", kind="date", type="plan", topic="the next print drop",
                 q=["When is the next print drop?", "What date is the new collection going live?"],
                 say=["next drop is {v}", "new collection goes live {v}", "dropping the new prints on {v}",
                      "launching the batch {v}, told the newsletter ppl", "{v} = drop day"]),
            dict(id="bestseller", kind="thing", pool="PRINTS", type="knowledge", topic="my best seller",
                 q=["Which print sells best?", "What's my best-selling print?"],
                 say=["best seller is \"{v}\" by a mile", "\"{v}\" keeps selling out", "ppl love \"{v}\", no idea why",
                      "top seller: \"{v}\"", "can't print \"{v}\" fast enough"]),
            dict(id="monthly_orders", kind="number", num=(25, 380), fmt=["{} orders"], type="knowledge",
                 topic="the order count this month",
                 q=["How many orders has the shop had this month?", "What's the order count for the month?"],
                 say=["{v} this month so far", "we're at {v} for the month", "order count this month: {v}",
                      "hit {v} this month!!", "{shop} did {v} this month"]),
        ],
        facts=[("decision", "everything's printed on recycled paper from now on"),
               ("relationship", "{packer} helps me pack orders on sundays, paid in pizza"),
               ("knowledge", "shipping outside the UK is a nightmare w/ customs forms"),
               ("event", "got a grumpy review on {day} about a bent corner"),
               ("preference", "no plastic in the packaging, ever"),
               ("relationship", "{lab} does all my printing, theyre great"),
               ("identity", "started {shop} as a lockdown hobby"),
               ("plan", "want a small market stall going in the autumn"),
               ("event", "{stockist} from a gift shop asked about stocking my stuff")],
        loops=[dict(acts=["reorder mailing tubes", "get more tubes for posting"],
                    opens=["almost out of tubes... like {few} left"],
                    done=["box of tubes showed up this morning", "fresh stack of tubes in the hallway, we're good"]),
               dict(acts=["photograph the new prints for the listings", "shoot product pics for the new batch"],
                    done=["listing photos are edited and uploaded", "new batch has proper pics now, daylight helped"]),
               dict(acts=["reply to {stockist} about wholesale", "get back to {stockist} re the trade prices"],
                    opens=["{stockist} is still waiting on a price list from me"],
                    done=["{stockist} has my trade terms in her inbox", "sent {stockist} the numbers, fingers crossed"]),
               dict(acts=["file the VAT return", "sort the quarterly tax return"],
                    opens=["vat return still needs doing, deadline's close"],
                    done=["VAT's submitted, {partner} double checked the sums", "quarterly return went in, confirmation saved"])],
        asks=[("how do i price prints w/o underselling myself",
               "Add up materials, printing, packaging and platform fees, then pay yourself for time on top - plenty of "
               "sellers land at two or three times their total cost for retail."),
              ("tubes or flat mailers for posters",
               "Tubes for anything big you don't want creased; rigid flat mailers are cheaper to post for small prints "
               "and feel nicer to open."),
              ("sold out of a print overnight and i'm kinda freaking out (good way)",
               "That's great news! Worth noting where those orders came from so you can lean into that channel.")],
        maybe=["if i went full time on the shop i'd prob starve lol",
               "would ppl buy calendars? genuinely asking the void",
               "did a craft fair years ago and swore never again"],
    ),
    dict(
        name="grant application", short=["the grant", "the application", "the {funder} bid", "grant stuff"],
        ents=dict(funder="FUNDERS", finance="PEOPLE", referee="PEOPLE", boss="PEOPLE"),
        slots=[
            dict(id="ask_amount", kind="number", num=(20, 240), fmt=["£{}k", "£{},000"], type="decision",
                 topic="the amount we're asking for",
                 q=["How much funding are we applying for?", "What's the total we're asking {funder} for?"],
                 say=["asking for {v} total", "the bid is for {v}", "we're going in at {v}", "budget request = {v}",
                      "{v} is the ask", "requesting {v} from {funder}"]),
            dict(id="grant_deadline", kind="date", type="plan", topic="the grant deadline",
                 q=["When is the grant application due?", "What's the deadline for the {funder} application?"],
                 say=["deadline is {v}", "it's due {v}, midday", "{funder} closes the round on {v}",
                      "submissions close {v}", "got untill {v} to submit"]),
            dict(id="project_title", kind="thing", pool="PROJECTS", type="decision", topic="the project title",
                 q=["What's the project called?", "What title did we give the grant project?"],
                 say=["project's called \"{v}\"", "going w/ \"{v}\" as the name", "title for now is \"{v}\"",
                      "we named it \"{v}\"", "\"{v}\" - that's the project"]),
            dict(id="co_lead", kind="name", pool="PEOPLE", type="relationship", topic="my co-applicant",
                 q=["Who's my co-applicant on the grant?", "Who is co-leading the bid with me?"],
                 say=["{v} is co-applicant", "{v} is on the bid w/ me", "co-lead: {v}",
                      "asked {v} to co-lead and they're in", "{v} and i r putting it in together"]),
            dict(id="word_cap", kind="number", num=(1200, 4500), fmt=["{} words", "{:,} wds"], type="knowledge",
                 topic="the word limit for the main section",
                 q=["What's the word limit on the main section?", "How many words can the case for support be?"],
                 say=["case for support is capped at {v}", "word limit is {v}, brutal", "max {v} for the main bit",
                      "{funder} allows {v} for the main section"]),
        ],
        facts=[("relationship", "{finance} in the finance office handles the costings"),
               ("knowledge", "{funder} only funds about a fifth of what they get"),
               ("decision", "leaving out the pilot study, keeping it lean"),
               ("event", "had a call w/ the program officer at {funder} on {day}, pretty encouraging"),
               ("plan", "submitting a few days early in case the portal crashes"),
               ("preference", "i write best late at night so drafts will land at odd hours"),
               ("relationship", "{boss} has to approve anything that goes out under the dept name"),
               ("event", "applied to {funder} once before and got rejected, feedback was fair")],
        loops=[dict(acts=["get the budget signed off by {finance}", "have {finance} approve the costings"],
                    opens=["need {finance} to sign off on the budget b4 submission",
                           "costings still aren't approved and i cant submit w/o that"],
                    done=["{finance} approved the costings, signed pdf in my inbox", "budget's got the official stamp from finance now"]),
               dict(acts=["draft the impact statement", "write up the impact section"],
                    opens=["impact section still needs doing"],
                    done=["impact statement exists now, rough but there", "first pass of the impact bit is on paper"]),
               dict(acts=["chase {referee} for the support letter", "nudge {referee} re the letter of support"],
                    opens=["still no support letter from {referee}..."],
                    done=["{referee}'s letter landed in my inbox", "got the letter from {referee}, it's glowing"]),
               dict(acts=["write the data management appendix", "knock out the data plan appendix"],
                    done=["appendix is drafted and w/ {boss} for a look", "data plan bit is written, {few} pages"])],
        asks=[("how do i make an impact section not sound like fluff",
               "Name who benefits, what changes for them and how you'll know - one concrete example with a measure "
               "beats a stack of vague claims."),
              ("reviewers skim these things in like a few min right?",
               "Often not much longer on a first pass, so put your strongest point in the opening paragraph and use "
               "headings that mirror the funder's criteria."),
              ("grant writing is soul destroying ngl",
               "It's a lot of work for an uncertain result. Giving each section its own day makes it feel less "
               "crushing.")],
        maybe=["if we got funded we'd need to hire someone like immediately, scary",
               "is it even worth applying to the smaller funds? idk",
               "wrote my first grant back in grad school, it was terrible lol"],
    ),
    dict(
        name="community allotment", short=["the allotment", "the plot", "allotment stuff", "the garden"],
        ents=dict(plotmate="PEOPLE", secretary="PEOPLE", society="SOCIETIES"),
        slots=[
            dict(id="plot_number", kind="number", num=(11, 98), fmt=["plot {}", "no. {}", "#{}"], type="knowledge",
                 topic="my plot number",
                 q=["What's my allotment plot number?", "Which plot is mine at {society}?"],
                 say=["we're {v}", "got {v}!", "mine's {v}, right by the gate", "{society} gave me {v}",
                      "assigned {v}, the one w/ the shed", "i'm on {v} fyi"]),
            dict(id="annual_fee", kind="number", num=(25, 140), fmt=["£{} a year", "£{}"], type="knowledge",
                 topic="the yearly plot fee",
                 q=["How much is the allotment fee each year?", "What do I pay {society} per year?"],
                 say=["fee is {v}", "rent for the plot is {v}", "{secretary} says it's {v}", "{v} for the plot, bargain",
                      "plot costs {v} to keep"]),
            dict(id="main_crop", kind="thing", pool="CROPS", type="plan", topic="the main crop this season",
                 q=["What's my main crop this season?", "What am I mostly growing on the plot this year?"],
                 say=["mostly growing {v} this year", "main crop: {v}", "going big on {v}",
                      "half the plot is gonna be {v}", "{plotmate} talked me into {v}"]),
            dict(id="workday", kind="date", type="event", topic="the next work day",
                 q=["When's the next allotment work day?", "What date is the society's work day?"],
                 say=["work day is {v}", "{society} work party is on {v}", "everyone's meant to show up {v} for the clear-out",
                      "communal work day {v}, bring gloves"]),
            dict(id="water_buddy", kind="name", pool="PEOPLE", type="relationship", topic="my watering buddy",
                 q=["Who waters my plot when I'm away?", "Who's my watering buddy at the allotment?"],
                 say=["{v} waters for me when im away", "{v} and i swap watering", "watering buddy is {v}",
                      "{v} has the spare key for the water trough"]),
        ],
        facts=[("event", "finally got a plot after ages on the waiting list"),
               ("relationship", "{plotmate} shares the plot w/ me, we split the work"),
               ("knowledge", "no hosepipes allowed, watering cans only"),
               ("decision", "going no-dig this year, cardboard + compost"),
               ("relationship", "{secretary} is the society secretary, very strict about weeds"),
               ("preference", "not growing anything that needs staking, i'm lazy"),
               ("event", "slugs ate every lettuce on {day}, devastating"),
               ("plan", "plan is a little pond in the corner next spring for the frogs")],
        loops=[dict(acts=["fix the shed door", "rehang the shed door"],
                    opens=["shed door's still hanging off its hinge"],
                    done=["shed shuts properly again", "new hinges on the shed, no more flapping"]),
               dict(acts=["order seed potatoes", "get the seed potatoes ordered"],
                    done=["spuds arrived, chitting on the windowsill", "the potato parcel came, {few} varieties"]),
               dict(acts=["pay the plot fee to {secretary}", "get the annual payment to {secretary}"],
                    opens=["{secretary} has emailed twice about my payment"],
                    done=["{secretary} confirmed the money came through", "{secretary} ticked me off her list, all square"]),
               dict(acts=["clear the brambles along the back fence", "hack back the brambles at the back"],
                    opens=["brambles at the back r taking over, someone has to deal"],
                    done=["back fence is visible again, arms scratched to bits", "the back strip's clear, took the whole afternoon"])],
        asks=[("what can i plant in late summer that'll actually grow",
               "Quick crops like radishes, salad leaves, spinach and spring onions, then overwintering onions and "
               "garlic once autumn arrives."),
              ("how do i stop slugs w/o poison",
               "Beer traps, copper tape, torch patrols after dark, and encouraging frogs and birds. Wool pellets round "
               "seedlings help too."),
              ("my back hurts from digging, send help",
               "Ouch. Shorter sessions, a long-handled spade and swapping sides help a lot - and there's no shame in "
               "giving up on digging altogether.")],
        maybe=["if i had a greenhouse i'd grow chillies all year, dream on",
               "do ppl actually eat all the courgettes they grow? seems impossible",
               "my gran had an allotment when i was little, thats probably where this started"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "correction: {say} - not {old}", (), "any"),
    ("explicit", "small correction re {topic}, it's {v}", (), "any"),
    ("explicit", "need to correct myself - {topic} is {v}", (), "any"),
    ("actually", "actually {say}, ignore the earlier thing", (), "any"),
    ("actually", "oh wait actually it's {v}", (), "same"),
    ("actually", "hm actually no - {say}", (), "any"),
    ("misspoke", "my bad, misspoke - {say}", (), "any"),
    ("misspoke", "ugh typo, meant {v} not {old}", (), "same"),
    ("misspoke", "wrong one sry. {Say}", (), "same"),
    ("change", "change of plans - {say}", (), "later"),
    ("change", "plans changed... {say} now, not {old}", (), "later"),
    ("change", "new plan: {say}", (), "later"),
    ("moved", "{topic} got moved to {v}", ("date",), "later"),
    ("moved", "had to bump {topic} to {v} - {old} fell thru", ("date",), "later"),
    ("moved", "{topic} moved from {old} to {v}", ("date",), "later"),
    ("is-now", "{topic} is {v} now", (), "later"),
    ("is-now", "heads up, {topic}'s now {v}, not {old} - it changed last wk", (), "later"),
    ("scratch", "scratch that - {say}", (), "same"),
    ("scratch", "scrap what i said re {topic}, {say}", (), "any"),
    ("scratch", "forget {old}, {say}", (), "any"),
    ("implicit", "so {say}", (), "later"),
    ("implicit", "{Say} as of this wk", (), "later"),
    ("implicit", "talked to them this am... {say}", (), "later"),
    ("implicit", "got an email earlier - {say}", (), "later"),
    ("updated", "update re {topic}: {v}", (), "later"),
    ("updated", "updated: {say} (was {old})", (), "later"),
    ("updated", "latest on {topic} - went from {old} to {v}", (), "later"),
    ("updated", "numbers updated, {say}", ("number",), "later"),
]

LOOP_OPEN = ["hafta {act} {due}", "on my plate {due}: {act}", "put this on my list pls - {act}",
             "ping me about it {due} - need to {act}", "should really {act} {due}", "{act} - that one's on me, {due}",
             "mental note: {act} {due}", "todo {due}: {act}", "dont let me forget to {act} {due}!!",
             "told {partner} i'd {act} {due}", "need to remember to {act} {due}", "ugh i hav to {act} {due}",
             "one more for the heap: {act}", "hold me to this - {act} {due}", "i'm on the hook to {act} {due}",
             "still need to {act}, ideally {due}", "will {act} {due}, promise", "said i'd {act} {due} so.. yeah",
             "job for me {due} - {act}", "reminder pls: {act} {due}", "before i forget - gotta {act}",
             "gonna have a go at it later, need to {act}", "can u bug me {due} to {act}",
             "must {act} {due} or i'm toast"]
DUES = ["tmrw", "by fri", "b4 monday", "asap", "by eod", "this wk", "by thurs", "over the wknd",
        "b4 the end of the month", "next wk", "by tues", "tommorow"]

ACK = ["Gotcha.", "Noted 👍", "Okay, noted.", "Makes sense to me.", "Ah, okay.", "Right, logged that.",
       "Cool - anything else?", "Got it, cheers.", "Handy, thanks.", "Fair enough, noted."]
ACK_VALUE = ["Noted: {topic} = {v}.", "Okay - {v} for {topic}, got that.", "{v}, noted.", "Logged {topic} as {v}.",
             "Cool, {topic}: {v}."]
ACK_CHANGE = ["Updated - {topic} is {v}, not {old}.", "Swapped {old} for {v}.", "Okay, {topic} now {v}.",
              "Changed it: {v} (was {old}).", "Got the change - {v} it is."]
ACK_TODO = ["On the list.", "Tracking it.", "Okay, I'll hold you to that.", "Added. I'll bring it up again.",
            "Noted as something you owe."]
ACK_DONE = ["Nice one, ticked off.", "Love that - closed.", "Done and dusted, marking it.",
            "Great, that's handled then.", "Brilliant, off your plate."]

OPENERS = ["hey", "yo", "morning", "hiya", "ok {short} again", "quick q re {short}", "back w/ {short}",
           "heyy got a sec", "ugh long day", "sry me again", "right so", "ok so", "evenin!", "update incoming re {short}",
           "hi hi", "got a min?"]
GREETINGS = ["Hey {me}! Go for it.", "Hi {me} - what's up?", "Here. What do you need?", "Hey! What's on the list?",
             "Hi! What are we tackling?", "Go ahead, I'm listening."]
CLOSERS = ["k thx", "ok ttyl", "thats all for now thx", "gtg", "cool cool ty", "perfect, cya", "ok bye for now"]
GOODBYES = ["Later!", "Catch you soon, {me}.", "Anytime - good luck.", "Look after yourself!", "Bye {me}!"]
FILLERS = [("k", "👍"), ("brb", "Sure thing, I'm around."), ("hmm", "Take a sec."), ("lol ok", "😄"),
           ("sry phone died", "No worries, welcome back."), ("wait what was i on about", "You'd just brought up {short}."),
           ("tysm!", "Pleasure!"), ("ugh", "That kind of day?")]
RECAP_ASKS = ["where r we on {short}?", "tl;dr on {short} pls", "sum up {short} for me?", "quick recap? brain is fried"]
RECAP_TODO = ["Still on your plate: {todo}", "To-dos left: {todo}", "Pending: {todo}"]
RECAP = ["Status on {short}: {body}.", "Quick rundown - {body}.", "State of play: {body}.", "The gist: {body}."]
LEADS = ["fwiw ", "ok so re {short} - ", "news on {short}: ", "btw ", "so, {short}: "]
LOWER_OK = (r"(?:Gotta|Hafta|Fwiw|On|Put|Ping|Should|Mental|Todo|Dont|Told|Need|Ugh|Adding|Hold|Still|Will|Said|Job|Reminder|"
            r"Before|Can|Must|Gonna|So|Ok|Oh|Hm|Actually|New|Heads|Scratch|Scrap|Forget|Update|Updated|Latest|"
            r"Numbers|Plans|Change|Correction|Small|My|The|We|Fyi|Btw|News|Got|Talked|Went|Booked|Moving|Rent|"
            r"Venue|Catering|Budget|Test|Insurance|Deadline|Fee|Main|Mostly|Going|Selling|Want|No)\b")
JOINERS = [" also ", " oh and ", " btw ", " + ", " and also "]

PERSONAL = [("identity", "i do UX at {employer}"),
            ("identity", "live in {city} btw"),
            ("relationship", "{partner} and i have been together forever, engaged since last winter"),
            ("relationship", "{cousin} is basically my sister, we grew up in the same house"),
            ("preference", "keep replies short pls, i read them on the bus mostly"),
            ("preference", "allergic to shellfish fyi, in case food comes up"),
            ("preference", "nothing early in the morning pls, i'm useless b4 coffee"),
            ("relationship", "{pet} the cat runs the household, we just live here"),
            ("identity", "grew up in a village nobody's heard of"),
            ("event", "{partner} and i are back from a long weekend by the coast, sunburnt"),
            ("identity", "i'm left handed, matters more often than you'd think"),
            ("preference", "hate phone calls, text me everything")]

CHITCHAT = [("whats a good album for a rainy afternoon", "Something slow and warm - a jazz piano record or a "
             "mellow folk album suits rain really well."),
            ("cant sleep again", "Sorry - dim screens, some water and a dull audiobook sometimes do the trick."),
            ("is it too late for a coffee at this point", "If it's mid-afternoon or later, probably - maybe a decaf or "
             "a walk instead?"),
            ("dinner idea that takes like no time?", "Egg-fried rice with frozen peas and whatever veg is lying around "
             "- fast and filling."),
            ("recommend a show to binge", "A tight crime drama with short seasons is hard to beat; or a warm comedy "
             "if you want something light."),
            ("why is every sunday evening so bleak", "The week looming does a lot of that. A small nice ritual on "
             "Sunday nights can take the edge off."),
            ("my succulent is going mushy at the bottom??", "That's usually rot from too much water - let the soil dry "
             "out fully and cut away the soft bits."),
            ("gimme a random fact", "Honey found in ancient tombs was still edible when archaeologists opened them."),
            ("nap or gym, decide for me", "Gym now, smug nap later."),
            ("is toast a valid lunch", "Absolutely. Put an egg on it and it's practically gourmet."),
            ("how do ppl fold fitted sheets", "Tuck the corners into each other, lay it flat, fold into a rectangle "
             "- or just roll it up and accept chaos."),
            ("upstairs neighbour is stomping again", "Ugh. Earplugs or some rain sounds might rescue your evening."),
            ("do u like winter or summer more", "No personal preference here, but a cosy winter evening sounds hard "
             "to beat."),
            ("finally cleared my desk lol", "A clear desk! Take a photo for posterity."),
            ("how do i keep mint from taking over", "Keep it in its own pot - even sunk into the ground, a pot stops "
             "the roots from spreading everywhere."),
            ("laptop fan is roaring like a hairdryer", "Worth checking for a runaway process, and blowing dust out of "
             "the vents can help a lot."),
            ("neck is killing me from the laptop", "Raise the screen to eye level if you can, and roll your "
             "shoulders back every so often."),
            ("cereal before milk or milk before cereal", "Cereal first, for the sake of civilisation."),
            ("want to read more but always end up on my phone", "Keep a book wherever you usually scroll - by the "
             "bed or on the sofa - and read just a page to start."),
            ("whats something fun to do on a grey saturday", "Try a new recipe, go to a local gallery, or pick a "
             "random bus route and see where it goes.")]
REQUESTS = [("can u write a quick msg to {stranger} at {org} saying i'll be {n} min late on {day}",
             "Here you go:\n\nHello {stranger} - quick note: I'll be roughly {n} minutes behind on {day}. "
             "Apologies!\n\n{me}"),
            ("tldr this pls: '{org} says the outage hit {big} customers and {stranger} wants a post-mortem in {n} days'",
             "{org}'s outage affected {big} customers; {stranger} wants a post-mortem within {n} days."),
            ("name ideas for a cafe {stranger} is opening?",
             "Some options: The Slow Pour, Second Cup Club, Steam & Crumb, Corner Kettle, Morning Ledger."),
            ("write a haiku about a grumpy printer",
             "Paper jam again / the green light blinks in triumph / I whisper, please work"),
            ("spellcheck: 'we definately recieved {n} boxes from {org} on {day}'",
             "'We definitely received {n} boxes from {org} on {day}.' - fixed definitely and received."),
            ("make this less rude: '{stranger}, ur invoice from {org} is {n} days late'",
             "'Hi {stranger}, just checking in on the {org} invoice - it looks like it's {n} days past due. Could you "
             "take a look when you get a chance?'"),
            ("how do u say 'the train is {n} minutes late' in german", "'Der Zug hat {n} Minuten Verspätung.'"),
            ("draft a cancellation email to {org}, member no. {big}",
             "Hi {org} team,\n\nPlease cancel my membership (member number {big}) and confirm by email.\n\nThanks,\n{me}"),
            ("packing list for a {few}-day camping trip?",
             "Tent, sleeping bag and mat, head torch, stove and fuel, water filter, layers and a rain jacket, food for "
             "{few} days, first-aid kit, and a bin bag for rubbish."),
            ("rewrite to sound more pro: 'hey {stranger} can we move the call to {day}'",
             "'Hi {stranger}, would it be possible to move our call to {day}? Thanks so much.'"),
            ("explain what inflation actually is, simply",
             "Prices creeping up over time, so the same money buys a little less each year.")]
DISTRACTORS = ["if i had a spare week i'd finally sort my photos out",
               "whats the name of that app that tracks subscriptions again?",
               "council tax is sorted for the yr at least, one win",
               "could learn spanish this year. could also not",
               "wonder if i should get a standing desk, prob not",
               "someday i'll own a garage full of tools and no idea how to use them",
               "in a perfect world i'd sleep {few} more hours a night",
               "would be nice if my laundry folded itself",
               "did i ever tell u i tried pottery once? disaster",
               "imagine having an empty inbox. couldn't be me",
               "should i bother renewing the gym thing? eh",
               "was meant to learn to cook properly back in uni, never happened lol"]
UNSURE = ["Hm, I don't think that's come up.", "You haven't told me that one, sorry.",
          "No idea - not something you've mentioned.", "I don't have that noted anywhere."]
SHRUG = ["Ha, been there.", "Fair.", "Oh, totally.", "Oof, I get it.", "Same energy, honestly."]
SUGGEST = [("am i missing anything?", "Maybe double-check the dates on anything you've booked before {day} - easy "
            "to slip."),
           ("what would u do", "I'd probably sleep on it and decide on {day} with fresh eyes."),
           ("any other ideas", "You could ask someone who's done it before - a quick call might save a lot of "
            "guessing."),
           ("help me not drop the ball here", "A shared checklist with a date next to each item might help; I can "
            "sketch one if you like.")]
