"""Phrase bank 'texter': a person thumb-typing on a phone. Mostly lowercase, abbreviations, dropped apostrophes,
real typos, run-ons. Written from the generator's README and banks/dev.py only, with new words throughout.
Placeholders: {v}/{old} slot values, {topic}, thread entities, {me} the user, {n}/{n2}/{big}/{few} fresh numbers,
{day}, {due}, {stranger}/{org} (one-off requests only)."""

NAME = "texter"

USERS = ["Jolene Pracht", "Rafferty Osei", "Marisol Ibarra", "Dwayne Kowalczyk", "Keisha Dumont",
         "Tobias Reinholt", "Birgit Szabo", "Caspian Whitlow", "Anneliese Brandvold", "Desmond Achterberg",
         "Loretta Quispe", "Fitzgerald Mbeki", "Imelda Harjo", "Brock Vandersloot", "Genevieve Otieno",
         "Augustin Pelletier"]

PEOPLE = ["Trina", "Bodhi", "Ansel", "Fenwick", "Ozzie", "Lupe", "Dmitri", "Winnie", "Shelby", "Colette",
          "Rocco", "Shauna", "Ignatius", "Pippa", "Alphonse", "Bree", "Dashiell", "Dolores", "Kimber", "Gus",
          "Inez", "Jedediah", "Lorcan", "Mabel", "Nestor", "Odessa", "Marvella", "Ramona", "Rustin", "Tyrell",
          "Ulla", "Vaughn", "Xavi", "Yolanda", "Zeke", "Abner", "Beatrix", "Tayshawn", "Esme", "Jovita",
          "Keaton", "Delroy"]
STRANGERS = ["Mr. Okonkwo-Hale", "Phyllis Grantham", "Dr. Szymanski", "Lyle Abernathy", "Bernadette Cho",
             "Mrs. Featherstone", "Rupert Quayle", "Dottie Marchetti", "Ezekiel Frome", "Constance Vidal",
             "Wallace Tembo", "Hortense Lund"]
ORGS = ["Fairbanks Mutual", "Juniper Ridge Credit Union", "Stillwater Water Co", "Quickline Mobile",
        "Redbarn Vet Clinic", "Tallgrass Realty", "Ploughman Pest Control", "Cinderford Library",
        "Moss Creek HOA"]
MARKETS = ["Eastside Saturday Market", "Old Depot Farmers Market", "Willow Lane Market", "Canal Street Market",
           "Harvest Square Market"]
CAFES = ["Bean & Bramble", "Little Magpie Cafe", "Kettle Black", "Steamworks Coffee", "The Drowsy Fox",
         "Two Sparrows Cafe"]
OVENS = ["Unox deck oven", "Rofco B40", "Blodgett convection oven", "Bongard mini deck", "Moretti combi"]
KITCHENS = ["Hearthside Commissary", "the Grange hall kitchen", "Crumb Collective", "Union Kitchen Share",
            "St. Brigid's church kitchen"]
KIDS = ["Marlowe", "Posy", "Tallulah", "Hattie", "Birdie", "Lettie"]
TEAMS = ["Riverhawks U10", "Blue Comets", "Lakeview Strikers", "Orange Crush FC", "Thunderbolts U11"]
FIELDS = ["Kessler Park", "the Dunmore Rd fields", "Pike Meadow", "the middle school turf", "Ashgrove Rec Center"]
CARS = ["Mazda 3 hatch", "Honda Fit", "Subaru Crosstrek", "Toyota RAV4", "Kia Soul", "Ford Escape",
        "Hyundai Elantra"]
DEALERS = ["Dutch's Auto Sales", "Hwy 9 Motors", "Capitol Pre-Owned", "Brightside Autos", "Lakeland Auto Mart"]
INSURERS = ["Lumbermens Auto", "Greyhawk Insurance", "Beacon Direct", "Thrifty Shield", "Norland Mutual"]
GIGVENUES = ["The Rusty Nail", "Mercury Lounge East", "Spoke & Wheel", "The Gravel Pit", "Velvet Underground Bar",
             "Doyle's Backroom"]
BANDS = ["The Hollow Sockets", "Parking Lot Saints", "Velcro Tigers", "Dim Lanterns", "Static Bloom"]
SUPPORT_ACTS = ["Moth Wing", "Sunday Brunch Riot", "Gutter Choir", "Paper Hound", "Cold Spaghetti",
                "The Leftover Brides"]
GARDENS = ["Fifth Ward Garden", "Mulberry St Community Garden", "Greenway Plots", "Sumac Hill Garden"]
CROPS = ["tomatillos", "sugar snap peas", "delicata squash", "lacinato kale", "purple potatoes", "okra",
         "ground cherries"]
MOVERS = ["Two Guys & A Dolly", "Bulldog Movers", "Swift Box Moving", "Careful Hands Relocation",
          "Big Lift Movers"]
HOODS = ["Brewer's Hill", "Little Havana", "the Flats", "Pleasant Ridge", "Eastmoor", "Cotton Row"]
PUPNAMES = ["Tater Tot", "Clover", "Ziggy", "Rosco", "Marzipan", "Nugget"]
RESCUES = ["Second Chance Paws", "Hound Haven Rescue", "Muddy Mutts Rescue", "Tri-County Humane"]
VETCLINICS = ["Riverbend Animal Hospital", "Pawsitive Vet Care", "Elm St Vet", "Cedar Grove Animal Clinic",
              "Northside Pet Hospital"]
PUPPY_SCHOOLS = ["Good Dog Academy", "Sit Happens Training", "Bark Park Obedience", "the PetSmart on Grand",
                 "Leash & Learn"]
TOWNS = ["Duluth", "Scranton", "Boise", "Tulsa", "Spokane", "Wichita"]
WORKPLACES = ["Kroger on 5th", "the dentist office", "Regional Medical", "a call center", "the county clerk"]
CATS = ["Noodle", "Sir Pounce", "Waffles", "Meatball"]

PERSONAL_ENTS = dict(cuz="PEOPLE", bestie="PEOPLE", town="TOWNS", job="WORKPLACES", kitty="CATS")

THREADS = [
    dict(
        name="bakery side business", short=["the bakery stuff", "the bread biz", "{cafe} orders", "baking stuff"],
        ents=dict(market="MARKETS", cafe="CAFES", miller="PEOPLE", helper="PEOPLE"),
        slots=[
            dict(id="market_day", kind="date", type="plan", topic="my {market} stall date",
                 q=["When is my stall at {market}?", "What day am I selling at {market}?"],
                 say=["got a stall at {market} {v}!!", "{market} said yes, im in for {v}",
                      "so my first {market} day is {v}", "im on the {market} list for {v}",
                      "selling at {market} on {v} omg"]),
            dict(id="loaves", kind="number", num=(20, 64), fmt=["{} loaves", "{} loaves a week"], type="knowledge",
                 topic="the {cafe} weekly order",
                 q=["How many loaves a week does {cafe} take?", "What's {cafe}'s standing bread order?"],
                 say=["{cafe} wants {v} every week", "standing order from {cafe} is {v}",
                      "{cafe} bumped up to {v}, its real now lol", "they said {v} for {cafe}, weekly"]),
            dict(id="stall_fee", kind="number", num=(35, 95), fmt=["${}", "{} bucks"], type="knowledge",
                 topic="the market stall fee",
                 q=["How much is the stall fee at {market}?", "What does a stall at {market} cost me?"],
                 say=["stall fee is {v} a day", "{market} charges {v} per stall", "its {v} for the stall, not bad"]),
            dict(id="oven", kind="thing", pool="OVENS", type="decision", topic="the new oven",
                 q=["Which oven am I buying for the bakery?", "What oven did I decide on?"],
                 say=["going w the {v}", "pulled the trigger on a {v}", "decided on the {v}, it fits thru the door"]),
            dict(id="kitchen", kind="place", pool="KITCHENS", type="plan", topic="the rented kitchen",
                 q=["Where am I renting kitchen time?", "Which commercial kitchen am I baking in?"],
                 say=["renting kitchen time at {v}", "ill be baking out of {v} from now on",
                      "booked shifts at {v} for the big bakes"]),
        ],
        facts=[("decision", "im not doing gluten free anymore, the cross contamination stress isnt worth it"),
               ("relationship", "{helper} helps me on market mornings, i pay in cash + bread"),
               ("event", "sold out of cardamom buns b4 lunch on {day}, kinda proud ngl"),
               ("knowledge", "my sourdough needs like {n} hrs in the fridge or it goes flat"),
               ("plan", "wanna add hand pies for the holidays if i can keep up"),
               ("preference", "i hate custom cake orders, theyre never worth the hassle"),
               ("relationship", "{miller} at the mill gives me a break on price if i buy bulk"),
               ("event", "health inspector came by {day} and we passed, phew"),
               ("decision", "raised my prices a lil, nobody complained")],
        loops=[dict(acts=["renew my food handler permit", "get the food handler thing renewed",
                          "sort out the food handlers renewal"],
                    opens=["my food handler permit runs out soon and i havent even looked at the form"],
                    done=["new food handler card came in the mail", "permit renewal went thru, good for another cycle",
                          "the county emailed my renewed food handler cert"]),
               dict(acts=["invoice {cafe} for last month", "send {cafe} their invoice",
                          "bill {cafe} for the last batch"],
                    opens=["{cafe} still hasnt been invoiced for last month and thats on me"],
                    done=["{cafe} paid up this am", "invoice to {cafe} is out, they said theyd pay friday",
                          "{cafe} has the invoice now"]),
               dict(acts=["order flour from {miller}", "put in a flour order w {miller}"],
                    opens=["down to my last bag of flour and nothing ordered, not great"],
                    done=["the flour showed up, my garage is all sacks now", "{miller} dropped off the flour {day}",
                          "flour situation is handled, pantry is stuffed"]),
               dict(acts=["get allergen labels printed", "print the new allergen stickers"],
                    opens=["still no allergen labels and the market is coming up fast"],
                    done=["labels came back from the print shop, they look so legit",
                          "allergen stickers are on every bag now", "the labels are here finally, {few} rolls of em"])],
        asks=[("how do ppl price baked goods, i feel like im undercharging",
               "A common starting point is ingredient and packaging cost times three or four, then check it "
               "against what similar stalls charge nearby. If you sell out early every time, that's a sign you can "
               "nudge prices up."),
              ("is it worth getting a card reader or do ppl mostly pay cash at markets",
               "These days a lot of shoppers expect to tap a card, so a small reader usually pays for itself in "
               "sales you'd otherwise lose. Keep a float of change for the cash crowd too."),
              ("im so tired, up b4 dawn every day this week", "That's a brutal schedule. Can any of the prep move "
               "to the evening before, like shaping and a cold retard overnight?")],
        maybe=["if i had a real storefront id need like {few} employees lol no thanks",
               "someday id love to teach a croissant class, not anytime soon tho",
               "wait whats that app ppl use for farmers market preorders?"],
    ),
    dict(
        name="kids school and soccer", short=["{kid}s soccer", "the kid schedule", "school stuff", "{kid} stuff"],
        ents=dict(kid="KIDS", team="TEAMS", teacher="PEOPLE", carpoolparent="PEOPLE"),
        slots=[
            dict(id="tourney", kind="date", type="event", topic="the {team} tournament",
                 q=["When is {kid}'s soccer tournament?", "What day is the {team} tournament?"],
                 say=["the {team} tourney is {v}", "tournament is {v}, all day apparently",
                      "{kid} has the big tournament {v}", "{team} plays the tourney {v}"]),
            dict(id="practice_field", kind="place", pool="FIELDS", type="plan", topic="practice location",
                 q=["Where is {kid}'s soccer practice?", "Which field does {team} practice at?"],
                 say=["practice is at {v} this season", "{team} practices at {v} now", "they train at {v}"]),
            dict(id="club_fee", kind="number", num=(120, 380), fmt=["${}", "{} bucks"], type="knowledge",
                 topic="the club fee",
                 q=["How much is the club fee for {team} this season?", "What do we owe the soccer club?"],
                 say=["club fee is {v} this season", "we owe the club {v}", "{v} for the season, ouch"]),
            dict(id="pt_conf", kind="date", type="plan", topic="the parent teacher conference",
                 q=["When is my parent-teacher conference with {teacher}?", "When do I meet {kid}'s teacher?"],
                 say=["{teacher} wants to meet {v}", "parent teacher conf is {v}",
                      "conference w {teacher} got set for {v}"]),
            dict(id="carpool", kind="name", pool="PEOPLE", type="relationship", topic="the practice carpool driver",
                 q=["Who's driving the soccer carpool?", "Who takes {kid} to practice on weekdays?"],
                 say=["{v} is doing carpool on weekdays", "{v} offered to drive {kid} to practice",
                      "carpool = {v} now"]),
        ],
        facts=[("event", "{kid} made the travel team!! shes over the moon"),
               ("relationship", "{carpoolparent} and i split the saturday drives"),
               ("knowledge", "{kid} is allergic to tree nuts so team snacks are a whole thing"),
               ("preference", "i refuse to do the early bird drop off, {kid} needs the sleep"),
               ("decision", "we pulled {kid} out of piano, cant do everything"),
               ("relationship", "{teacher} is {kid}s homeroom teacher this yr, super nice"),
               ("event", "{kid} scored her first goal {day} and i cried a little not gonna lie"),
               ("plan", "were gonna try no screens on school nights")],
        loops=[dict(acts=["sign the field trip permission slip", "sign {kid}s permission slip",
                          "get the field trip form signed"],
                    opens=["the field trip form is still sitting on the counter unsigned"],
                    done=["permission slip is in her backpack", "field trip form went back to school signed",
                          "{teacher} has the signed slip"]),
               dict(acts=["buy {kid} new cleats", "get {kid} cleats that actually fit"],
                    opens=["{kid} still doesnt have cleats that fit, her toes are smushed"],
                    done=["new cleats fit, she wont take them off", "{kid} has cleats now, half size up",
                          "the cleat hunt is over, third store had her size"]),
               dict(acts=["email {teacher} about the reading group", "write to {teacher} re the reading group"],
                    opens=["{teacher} is probably wondering why i never answered abt the reading group"],
                    done=["{teacher} wrote back, {kid} moves up a reading group", "heard back from {teacher} {day}",
                          "reading group convo w {teacher} is settled"]),
               dict(acts=["bring snacks for the {day} game", "cover snack duty for the {day} game"],
                    done=["snack duty handled, orange slices and juice boxes", "snacks are in the trunk for the game",
                          "team snacks: covered. costco run paid off"])],
        asks=[("how do u get a 9 yr old to do homework without a fight",
               "Short, predictable routines help: same time, same spot, snack first, and a timer for a focused "
               "stretch followed by a break. Letting them pick the order of tasks gives a bit of control back."),
              ("what do u even pack for an all day soccer tournament",
               "Folding chairs, a cooler with water and easy snacks, sunscreen, a spare jersey and socks, a "
               "blanket, and something for siblings to do between games."),
              ("the school emails are insane, like three a day", "That's a lot. A filter that labels anything from "
               "the school domain and a once-a-day skim can make it manageable.")],
        maybe=["if we did every activity she asked for id need a second car and a clone",
               "wats the app the team uses for schedules again?",
               "someday ill be organized enough to pack lunches the night before lol"],
    ),
    dict(
        name="used car purchase", short=["the car thing", "car shoppin", "the great car search"],
        ents=dict(dealer="DEALERS", mechanic="PEOPLE", seller="PEOPLE"),
        slots=[
            dict(id="which_car", kind="thing", pool="CARS", type="decision", topic="the car im buying",
                 q=["Which car am I buying?", "What model did I settle on for the used car?"],
                 say=["leaning hard toward the {v}", "ok its gonna be the {v}", "we decided on the {v}",
                      "the {v} won, sorry every other car"]),
            dict(id="max_price", kind="number", num=(9, 26), fmt=["${}k", "{}k", "${},000"], type="decision",
                 topic="my max budget for the car",
                 q=["What's my max budget for the used car?", "How much am I willing to spend on the car?"],
                 say=["my hard ceiling is {v} out the door", "not going over {v} for the car",
                      "budget for the car is {v} tops"]),
            dict(id="mileage", kind="number", num=(40, 140), fmt=["{}k miles", "{},000 miles"], type="knowledge",
                 topic="the mileage on the car",
                 q=["How many miles does the car have on it?", "What does the odometer on the car say?"],
                 say=["it has {v} on it", "odometer says {v}", "{v}, not amazing not terrible"]),
            dict(id="test_drive", kind="date", type="plan", topic="my test drive appt",
                 q=["What day did I set up the test drive?", "When do I get to try out the car?"],
                 say=["test drive booked for {v}", "set up a test drive at {dealer} for {v}", "driving it {v}"]),
            dict(id="insurer", kind="name", pool="INSURERS", type="decision", topic="the car insurance",
                 q=["Which insurer is covering the new car?", "What company is my car insurance with?"],
                 say=["going with {v} for insurance", "insurance will be thru {v}", "{v} gave me the best quote"]),
        ],
        facts=[("preference", "i really want something w heated seats, winters here are brutal"),
               ("relationship", "{mechanic} is my uncles mechanic, will look at anything for cheap"),
               ("decision", "no more private sellers after the last disaster, dealer only"),
               ("event", "the first one we saw at {dealer} had rust all under the doors, nope"),
               ("knowledge", "my credit score went up {n} points since last yr, which helps"),
               ("plan", "selling my old car to {seller} once the new one is sorted"),
               ("preference", "manual is a dealbreaker, i cant drive stick"),
               ("event", "salesguy at {dealer} called me {few} times {day}, chill dude")],
        loops=[dict(acts=["get preapproved at the credit union", "get the loan preapproval done",
                          "sort out preapproval w the credit union"],
                    opens=["still havent heard back from the credit union abt the loan"],
                    done=["preapproval letter came thru", "credit union approved me, rate is decent",
                          "loan is preapproved, have the letter in my email"]),
               dict(acts=["have {mechanic} do a pre purchase inspection", "have {mechanic} give it a once over"],
                    opens=["need {mechanic} to look at it before i sign anything"],
                    done=["{mechanic} looked it over, just needs brake pads", "inspection is back and its clean",
                          "{mechanic} gave it the thumbs up after poking around for an hour"]),
               dict(acts=["pull the carfax", "run the vin report"],
                    opens=["still dont know if the car was ever in a wreck, havent pulled any history on it"],
                    done=["carfax is clean, one owner", "vin report came back, no accidents",
                          "history report is in, boring in a good way"]),
               dict(acts=["get the title from {seller}", "get {seller} to hand over the title"],
                    opens=["{seller} has had my old title paperwork for a week w/ no word"],
                    done=["title is signed over, {seller} has it", "{seller} has the title and the keys now",
                          "old car officially belongs to {seller}"])],
        asks=[("is it dumb to buy a car with a ton of miles on it", "Not necessarily - maintenance history matters more "
               "than the odometer. A well-serviced car with high miles can outlast a neglected one with low miles."),
              ("what should i ask on a test drive", "Ask for the service records, whether it's had accidents, "
               "when the timing belt and brakes were last done, and drive it on the highway and over bumps."),
              ("car dealers make me want to scream", "Understandable. Getting financing lined up beforehand and "
               "negotiating the out-the-door price by email takes a lot of the pressure off.")],
        maybe=["if gas keeps going up im just gonna bike everywhere lol",
               "in theory an electric would be smarter but the math dont work yet",
               "what was that site that tells u if a price is fair?"],
    ),
    dict(
        name="band gig", short=["the gig", "band stuff", "the {band} show", "{band} stuff"],
        ents=dict(band="BANDS", drummer="PEOPLE", promoter="PEOPLE"),
        slots=[
            dict(id="gig_date", kind="date", type="event", topic="the gig date",
                 q=["When is the {band} gig?", "What night do we play?"],
                 say=["we play {v}!!", "gig is {v}", "{promoter} booked us for {v}", "{band} show is {v}, mark it"]),
            dict(id="gig_venue", kind="place", pool="GIGVENUES", type="plan", topic="the gig venue",
                 q=["Where is the {band} gig?", "What venue are we playing?"],
                 say=["were playing {v}", "show is at {v}", "{promoter} got us into {v}"]),
            dict(id="set_length", kind="number", num=(25, 75), fmt=["{} min", "{} minutes"], type="knowledge",
                 topic="our set length",
                 q=["How long is our set?", "How many minutes do we get on stage?"],
                 say=["we get {v} on stage", "set is {v}, tight", "they gave us {v}"]),
            dict(id="guarantee", kind="number", num=(150, 600), fmt=["${}", "{} bucks"], type="decision",
                 topic="the guarantee",
                 q=["How much are we getting paid for the gig?", "What's the guarantee for the show?"],
                 say=["guarantee is {v}", "were getting {v} plus drink tickets", "{promoter} is paying {v} flat"]),
            dict(id="opener", kind="name", pool="SUPPORT_ACTS", type="relationship", topic="the opening act",
                 q=["Who is opening for us?", "Which band is the opener?"],
                 say=["{v} is opening for us", "openers are {v}", "{v} got the opening slot"]),
        ],
        facts=[("decision", "were doing the new song live for the first time, terrifying"),
               ("relationship", "{drummer} is back on drums after the wrist thing"),
               ("preference", "i want the slow one in the middle not at the end"),
               ("event", "band practice {day} was actually tight for once"),
               ("knowledge", "the house drum kit there is trash, {drummer} is hauling ours in"),
               ("plan", "gonna sell shirts at the merch table if they arrive in time"),
               ("relationship", "{promoter} books half the shows in town so we gotta be nice"),
               ("decision", "no more covers, all originals from now on")],
        loops=[dict(acts=["book the van for the gig", "rent a van for the show", "sort the van situation"],
                    opens=["we still dont have a van and the gear wont fit in my hatchback"],
                    done=["sorted the van thing, {drummer}s cousin is lending us one",
                          "van is reserved, pick up is the morning of", "we have wheels for the show"]),
               dict(acts=["get {drummer} to approve the flyer art", "get the flyer approved by {drummer}"],
                    opens=["{drummer} has to ok the flyer b4 it goes anywhere"],
                    done=["{drummer} ok'd the flyer, its up on insta", "flyer is approved and printed",
                          "flyers are stapled to every pole on main st"]),
               dict(acts=["get the bass amp fixed", "take the amp to the repair shop"],
                    opens=["the bass amp still crackles and theres no time left"],
                    done=["amp came back from the shop, sounds huge", "bass amp is fixed, no more crackle",
                          "picked up the amp, repair guy only charged for parts"]),
               dict(acts=["print the setlists", "make setlists for everyone"],
                    opens=["nobody has made setlists yet and last time we winged it, disaster"],
                    done=["setlists printed, big font this time", "got setlists taped to the monitors already",
                          "everyone has a setlist in their case now"])],
        asks=[("how do u get ppl to actually come to a local show",
               "Personal invites beat posts: message people directly, team up with the other bands to cross-promote, "
               "and give a reason to come on time, like a short opener or drink special."),
              ("how loud is too loud for a small bar", "If people at the bar can't order without shouting, it's "
               "too loud. Ask the sound person to walk the room during soundcheck."),
              ("stage fright is real rn", "Totally normal. A solid first song you could play in your sleep and a "
               "couple of slow breaths before you start go a long way.")],
        maybe=["if we ever tour id need like {few} weeks off work, never happening",
               "someday i wanna record at a real studio instead of {drummer}s basement",
               "whats the name of that band we opened for last yr?"],
    ),
    dict(
        name="community garden", short=["the garden plot", "garden stuff", "my plot", "{garden}"],
        ents=dict(garden="GARDENS", chair="PEOPLE", plotbuddy="PEOPLE"),
        slots=[
            dict(id="plot_no", kind="number", num=(20, 88), fmt=["plot {}", "#{}"], type="knowledge",
                 topic="my assigned plot",
                 q=["What's my plot number at {garden}?", "Which plot is mine at the garden?"],
                 say=["i got {v}!", "my spot is {v}, by the shed", "they assigned me {v}, right by the compost lol"]),
            dict(id="workday", kind="date", type="plan", topic="the garden workday",
                 q=["When is the garden workday?", "What day is the {garden} cleanup?"],
                 say=["workday is {v}", "{chair} set the cleanup for {v}", "{garden} workday is {v}, bring gloves"]),
            dict(id="dues", kind="number", num=(25, 95), fmt=["${}", "{} bucks"], type="knowledge",
                 topic="the garden dues",
                 q=["How much are the garden dues this year?", "What do I owe {garden} for the year?"],
                 say=["dues are {v} this yr", "{garden} wants {v} for the season", "its {v} for the plot this yr"]),
            dict(id="crop", kind="thing", pool="CROPS", type="preference", topic="the back bed",
                 q=["What am I planting in the back bed?", "What's going in the back bed this year?"],
                 say=["putting {v} in the back bed", "back bed = {v} this yr", "im trying {v} in the back bed"]),
            dict(id="water_lead", kind="name", pool="PEOPLE", type="relationship", topic="the watering schedule lead",
                 q=["Who's running the watering schedule?", "Who organizes watering at {garden}?"],
                 say=["{v} is running the watering sched", "{v} took over watering", "watering schedule is on {v} now"]),
        ],
        facts=[("relationship", "{chair} is the garden chair and takes it super seriously"),
               ("decision", "not using any spray this yr, just hand picking bugs"),
               ("event", "something ate all my lettuce {day}, prob rabbits"),
               ("preference", "i like going early when its quiet, b4 the kids show up"),
               ("relationship", "{plotbuddy} has the plot next to mine, we share a compost bin"),
               ("knowledge", "last frost here is usually mid spring"),
               ("plan", "gonna put in a little pollinator strip along the fence"),
               ("event", "the city finally turned the water on at {garden}")],
        loops=[dict(acts=["renew my plot registration", "get the plot renewal in", "renew the plot permit"],
                    opens=["plot renewal is due and i havent done it"],
                    done=["plot renewal went thru, im set for the season", "got the renewal confirmation from {chair}",
                          "the plot is mine thru next year"]),
               dict(acts=["fix the rain barrel", "patch the leaky rain barrel"],
                    opens=["the rain barrel is still leaking all over the path"],
                    done=["rain barrel doesnt leak anymore", "patched the barrel, bone dry underneath now",
                          "path by the rain barrel isnt a swamp anymore"]),
               dict(acts=["return the tiller to {plotbuddy}", "bring the tiller back to {plotbuddy}"],
                    opens=["the tiller is still in my trunk, {plotbuddy} must think i stole it"],
                    done=["tillers back in {plotbuddy}s shed", "{plotbuddy} has the tiller back",
                          "dropped the tiller off, owe {plotbuddy} a beer"]),
               dict(acts=["order seeds for the fall planting", "put in the seed order"],
                    done=["the seeds showed up this am", "seed packets arrived, way too many as usual",
                          "seed order is on the porch"])],
        asks=[("how often should i water raised beds in the summer",
               "Usually deep watering every two or three days beats a light sprinkle daily; stick a finger in the "
               "soil and water when the top couple of inches are dry. Mulch helps a lot."),
              ("whats the deal with companion planting, is it real",
               "Some of it holds up - like flowers that draw in pollinators and predatory insects - and some is "
               "folklore. Spacing and soil matter more than any specific pairing."),
              ("my back is wrecked from weeding lol", "Oof. A kneeler pad and short sessions help, and a "
               "thick layer of mulch will cut down on weeding a lot.")],
        maybe=["if i had a bigger plot id grow everything, corn, melons, all of it",
               "someday i want chickens but the landlord would kill me",
               "whats that bug that looks like a tiny orange beetle?"],
    ),
    dict(
        name="apartment move", short=["the apt move", "moving chaos", "the new apt", "the apt switch"],
        ents=dict(landlord="PEOPLE", roomie="PEOPLE"),
        slots=[
            dict(id="moveday", kind="date", type="plan", topic="the move date",
                 q=["What day is the move happening?", "When do we move apartments?"],
                 say=["big day is {v}, truck n all", "were moving {v}", "keys on {v}, move same day",
                      "{landlord} says we can move in {v}"]),
            dict(id="rent", kind="number", num=(1150, 2650), fmt=["${}", "{} a month"], type="decision",
                 topic="rent at the new apt",
                 q=["What's the rent at the new apartment?", "How much is rent at the new place?"],
                 say=["rents gonna be {v}", "we signed at {v}", "{landlord} agreed to {v} for rent"]),
            dict(id="movers", kind="name", pool="MOVERS", type="decision", topic="the movers we hired",
                 q=["Which movers did I hire?", "What moving company is doing the move?"],
                 say=["booked {v} for the move", "going w {v} for the heavy stuff", "{v} is moving us"]),
            dict(id="hood", kind="place", pool="HOODS", type="knowledge", topic="the new neighborhood",
                 q=["What neighborhood is the new apartment in?", "Where's the new place?"],
                 say=["new place is in {v}", "were gonna be in {v}", "its in {v}, near the good tacos"]),
            dict(id="deposit", kind="number", num=(700, 2400), fmt=["${}", "{} dollars"], type="knowledge",
                 topic="the security deposit",
                 q=["How much was the security deposit on the new apartment?", "What did I put down as deposit?"],
                 say=["deposit is {v}, due at signing", "{landlord} wants {v} down as deposit",
                      "security deposit came out to {v}"]),
        ],
        facts=[("decision", "{roomie} gets the bigger room since {roomie} pays more"),
               ("relationship", "{landlord} owns the whole building and lives on the first floor"),
               ("preference", "i want my desk by the window, non negotiable"),
               ("knowledge", "street parking over there needs a permit"),
               ("event", "the old landlord did the walk thru {day}, only dinged us for a nail hole"),
               ("plan", "were gonna paint the bedroom before we move furniture in"),
               ("decision", "we're selling the ugly couch instead of moving it")],
        loops=[dict(acts=["send the signed lease to {landlord}", "get the lease signed and back to {landlord}"],
                    opens=["{landlord} is waiting on the signed lease from me"],
                    done=["{landlord} got the signed lease", "lease is signed both sides, {landlord} emailed a copy",
                          "lease is official, {landlord} has my signature"]),
               dict(acts=["set up mail forwarding", "forward my mail to the new place"],
                    opens=["my mail is still going to the old address lol"],
                    done=["mail forwarding starts next week", "mail is forwarding now, got a confirmation",
                          "post office has my new address on file"]),
               dict(acts=["cancel internet at the old place", "kill the old internet plan"],
                    done=["old internet is cancelled", "internet at the old place is shut off as of {day}",
                          "old provider finally let me go after a looong hold"]),
               dict(acts=["get renters insurance", "buy a renters policy"],
                    opens=["still no renters insurance and the lease requires it"],
                    done=["renters insurance is active", "got a renters policy, sent proof to {landlord}",
                          "{landlord} has proof of renters insurance now"])],
        asks=[("how do i pack a kitchen without losing my mind",
               "Pack a first-night box with a pan, a knife, a couple of plates and mugs, then wrap everything else "
               "in towels and clothes so you move the padding at the same time."),
              ("should i tip movers", "It's customary in a lot of places - many people tip per mover based on how "
               "long and hard the job was, plus water or snacks during the day."),
              ("boxes everywhere, cant find my charger", "Classic move chaos. Put chargers, meds and keys in one "
               "bag that stays with you, not on the truck.")],
        maybe=["if we had a bigger budget id hire ppl to pack everything",
               "someday ill own a place and never move again",
               "who was that junk removal company everyone likes?"],
    ),
    dict(
        name="new puppy", short=["the puppy", "puppy stuff", "{pup}", "the dog situation"],
        ents=dict(pup="PUPNAMES", rescue="RESCUES", trainer="PEOPLE", dogsitter="PEOPLE"),
        slots=[
            dict(id="gotcha_day", kind="date", type="plan", topic="{pup}s pickup day",
                 q=["When do I pick up {pup}?", "What day is {pup} coming home?"],
                 say=["we get {pup} {v}!!!", "pickup from {rescue} is {v}", "{rescue} says {pup} can come home {v}",
                      "gotcha day is {v}, i cant waittt"]),
            dict(id="adopt_fee", kind="number", num=(150, 450), fmt=["${}", "{} bucks"], type="knowledge",
                 topic="{pup}s adoption fee",
                 q=["How much is the adoption fee for {pup}?", "What does {rescue} charge for the adoption?"],
                 say=["adoption fee is {v}", "{rescue} charges {v}, shots included", "paid {rescue} {v} for her"]),
            dict(id="vet", kind="name", pool="VETCLINICS", type="decision", topic="{pup}s vet",
                 q=["Which vet is {pup} going to?", "Where does {pup} get her vet care?"],
                 say=["going w {v} for vet stuff", "{pup}s vet is gonna be {v}", "signed her up at {v}"]),
            dict(id="puppy_class", kind="place", pool="PUPPY_SCHOOLS", type="plan", topic="puppy class",
                 q=["Where is {pup}'s puppy class?", "Which training place did I sign {pup} up at?"],
                 say=["signed {pup} up for puppy class at {v}", "puppy class is at {v}", "{trainer} teaches the class at {v}"]),
            dict(id="pup_weight", kind="number", num=(21, 68), fmt=["{} lbs", "{} pounds"], type="knowledge",
                 topic="{pup}s weight",
                 q=["How much does {pup} weigh?", "What did {pup} weigh in at?"],
                 say=["{pup} is {v} already", "vet weighed her, {v}", "shes {v} of pure chaos"]),
        ],
        facts=[("knowledge", "{pup} is some kind of lab mix, maybe shepherd in there too"),
               ("relationship", "{dogsitter} offered to watch {pup} on my long shifts"),
               ("event", "{pup} chewed thru my phone charger {day}, rip"),
               ("event", "crate training is going way better than i thought"),
               ("decision", "no dog on the bed. (we'll see how long that lasts)"),
               ("knowledge", "{rescue} does a check in visit after the first month"),
               ("preference", "i want a harness not a collar, she pulls like a sled dog"),
               ("relationship", "{trainer} is the trainer everyone at the dog park recommends")],
        loops=[dict(acts=["puppy proof the kitchen", "get the kitchen puppy proofed"],
                    done=["cords are all up off the floor, kitchen is officially puppy proof",
                          "baby gate is up and the trash can has a lid now",
                          "nothing chewable left below knee height"]),
               dict(acts=["register {pup}s microchip", "get the microchip registered to me"],
                    opens=["{pup}s microchip is still registered to the rescue not me"],
                    done=["microchip is in my name now", "chip registration confirmed, got the email",
                          "if {pup} gets lost they call me now, not the rescue"]),
               dict(acts=["book {pup} a vet checkup", "get {pup} in for her first checkup"],
                    opens=["{pup} still hasnt seen a vet and its been like a week"],
                    done=["{pup} had her checkup, healthy girl", "vet visit went fine, next shots in a month",
                          "{pup} has been seen, vet says shes perfect (obviously)"]),
               dict(acts=["buy a crate for {pup}", "order {pup} a crate"],
                    opens=["{pup} is still sleeping in a laundry basket, we have no crate"],
                    done=["crate arrived, shes already napping in it", "{pup} has a crate now, the big kind",
                          "crate is set up next to my bed"])],
        asks=[("how long can a puppy hold it overnight",
               "A rough rule is about an hour per month of age, so a young puppy will likely need one trip out in "
               "the middle of the night for a while."),
              ("is it normal for a puppy to cry all night in the crate",
               "Very common for the first nights. Keep the crate near your bed, add something that smells like you, "
               "and keep night trips out boring and quick."),
              ("im running on zero sleep bc of this dog lol", "The puppy weeks are rough. It does get better fast "
               "once the bladder and the routine catch up.")],
        maybe=["if i had a yard id get a second dog immediately",
               "someday maybe shell be a therapy dog, who knows",
               "whats that chew toy everyone swears by?"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "wait no its {v} not {old}", (), "any"),
    ("explicit", "correction on {topic}: {v}. NOT {old}", (), "any"),
    ("explicit", "no sorry {topic} is {v}, i typed {old} for some reason", (), "same"),
    ("actually", "actually its {v}", (), "any"),
    ("actually", "oh actualy {say}", (), "any"),
    ("actually", "hm actually no, {say}", (), "same"),
    ("misspoke", "ugh autocorrect. {say}", (), "same"),
    ("misspoke", "sorry fat fingered that, {v}", (), "same"),
    ("misspoke", "my bad i said {old} earlier but {say}", (), "any"),
    ("change", "change of plans, {say}", (), "later"),
    ("change", "ok new plan: {say}", (), "later"),
    ("change", "so that changed lol. {say} now", (), "later"),
    ("moved", "they moved {topic} to {v} apparently", ("date", "place"), "later"),
    ("moved", "{topic} got bumped to {v}", ("date",), "later"),
    ("moved", "pushed {topic} back to {v} ugh", ("date",), "later"),
    ("moved", "they switched {topic} over to {v}", ("place",), "later"),
    ("is-now", "{topic}? its {v} now", (), "later"),
    ("is-now", "heads up {topic} is {v} now, not {old}", (), "later"),
    ("is-now", "fyi its {v} for {topic} now", (), "later"),
    ("scratch", "scratch that, {v}", (), "same"),
    ("scratch", "nvm what i said abt {topic}, {say}", (), "any"),
    ("scratch", "scratch that lol {say}", (), "same"),
    ("implicit", "{Say}", (), "later"),
    ("implicit", "just got off the phone w them. {say}", (), "later"),
    ("implicit", "so turns out {say}", (), "later"),
    ("implicit", "talked to everyone this am and {say}", (), "later"),
    ("updated", "updt: {say}", (), "later"),
    ("updated", "{topic} update - {v} (was {old})", (), "later"),
    ("updated", "new info on {topic}, its {v} now instead of {old}", (), "later"),
    ("updated", "ok update on {topic}: {v} now", (), "later"),
    ("misspoke", "*{v}", (), "same"),
    ("misspoke", "typo lol, meant {v}", (), "same"),
    ("explicit", "not {old} - {v}. sorry", (), "any"),
    ("change", "welp that changed, {say}", (), "later"),
    ("moved", "{topic} moved to {v} fyi", ("date", "place"), "later"),
    ("moved", "rescheduled!! {topic} is {v} now", ("date",), "later"),
    ("actually", "oh wait actually {v}", (), "any"),
    ("implicit", "{Say} btw", (), "later"),
    ("implicit", "ok so i checked again and {say}", (), "later"),
    ("scratch", "ignore what i said b4, {say}", (), "any"),
]

LOOP_OPEN = ["gonna {act} {due}", "throw this on my list: {act}", "ping me {due} to {act} pls",
             "i gotta {act} {due} dont let me flake", "lemme {act} {due}, hold me to it",
             "todo for me - {act}", "remind me {due} to {act}", "i told them id {act} {due}",
             "need to {act} {due} fr", "adding to the never ending pile: {act}", "ok im on the hook to {act} {due}",
             "ugh forgot to {act}, ill do it {due}", "can u bug me {due}? i have to {act}",
             "sticky note for me: {act}", "mental note, {act} {due}",
             "i volunteered to {act} {due} bc apparently im the responsible one",
             "{due} i need to {act}", "ill take care of it, {act} {due}", "def have to {act} {due}",
             "keep an eye on this for me: i still gotta {act}", "ill try n {act} {due}", "on my plate now: {act}",
             "if i dont {act} {due} im toast", "gotta remember to {act} {due}", "i should {act} {due}, pls nag me"]
DUES = ["tmrw", "by friday-ish", "b4 the weekend", "this week sometime", "b4 eod", "thurs", "monday latest", "b4 next wk",
        "tonite", "at some point this wk"]

ACK = ["Okay, saved that.", "Mm, that checks out.", "Ah, useful to know.", "Okay - sounds like progress.",
       "Noted it down.", "Okay, good to have that.", "Alright, that's on file.", "Oh nice, thanks for letting me know.",
       "Right, thanks for that.", "Fair enough - want to go over anything else there?"]
ACK_VALUE = ["Got it - {topic} is {v}.", "Okay, {topic}: {v}. Noted.", "Saved: {v} for {topic}.",
             "Alright, {v} it is for {topic}."]
ACK_CHANGE = ["Okay, switching {topic} to {v}.", "Fixed - it's {v} now instead of {old}.",
              "Right, {v} rather than {old}. Updated.", "Noted the change: {topic} is now {v}."]
ACK_TODO = ["Okay, I put that on your list.", "I'll hold onto that one for you.", "Added - I'll bring it up again.",
            "Got it, tracking that."]
ACK_DONE = ["Nice, ticking that off.", "Love that - one down.", "Great, that one's closed out.",
            "Done and dusted then."]

OPENERS = ["heyy", "ok {short} round 2", "morning lol", "u there?", "quick q abt {short}", "sry its me again",
           "hiii", "ugh today was A Lot", "ok so {short}", "back", "yo", "ok where were we",
           "need to brain dump for a sec"]
GREETINGS = ["Hey {me}! I'm here.", "Hi {me} - what's going on?", "Here! Go for it.", "Hey, what do you need?",
             "Oh hey {me}, what's new?", "Hi! Fire away."]
CLOSERS = ["ok thx thats all", "ty!!", "gtg, ttyl", "perf thx", "k bye", "ok cool, later"]
GOODBYES = ["Talk later!", "Take care, {me}.", "Anytime - good luck with it.", "Bye! Ping me whenever.",
            "Glad to help."]
FILLERS = [("k", "Alrighty!"), ("hang onnn", "Sure, take a sec."), ("brb", "I'll hang tight."),
           ("sorry kid emergency", "No worries, I'm here when you're back."), ("lmao", "Ha!"), ("yup", "Cool."),
           ("wait what was i saying", "You were mid-thought on {short}."), ("ty", "Of course!")]
RECAP_ASKS = ["wheres {short} at", "recap pls", "sum up {short} for me real quick?",
              "tldr of where things are?"]
RECAP_TODO = ["Waiting on you: {todo}", "Still hanging: {todo}", "Hasn't happened yet: {todo}"]
RECAP = ["Nutshell version of {short}: {body}.", "Where it stands: {body}.", "Short version - {body}.",
         "Current state: {body}."]
LEADS = ["ok so re {short}: ", "psa ", "heads uppp ", "{short} news: ", "omg ok "]
LOWER_OK = (r"(?:So|Ok|Okay|Ugh|Wait|Got|Gonna|Need|Still|The|Our|My|Its|Put|Pls|Ping|Lemme|Todo|Just|Oh|Also|"
            r"Heads|Fyi|Updt|Scratch|Nvm|Hm|They|We|Were|Sold|Im|Ill|Def|Adding|Sticky|Mental|Remind|Keep|Can|"
            r"Going|Renting|Booked|Moving|Rent|Set|Test|Practice|Club|Tournament|Workday|Dues|Back|New|Selling|"
            r"Pushed|Change|Talked|Actually|Correction|Sorry|No|Omg|News|Not|Raised|Something|Salesguy|Selling)\b")
JOINERS = [" Oh n ", " Annnd ", " Ooh and ", " Also also "]

PERSONAL = [("identity", "i work at {job}, mostly evenings"),
            ("identity", "originally from {town} if that matters"),
            ("relationship", "my cuz {cuz} lives like {few} blocks away, emergency contact for literally everything"),
            ("relationship", "{bestie} is my best friend since middle school"),
            ("preference", "pls keep it short i read this on my phone on break"),
            ("preference", "i dont drink coffee, tea only, dont judge"),
            ("relationship", "my cat {kitty} runs the house tbh"),
            ("identity", "im a single mom so my time is kinda chopped up"),
            ("preference", "i hate phone calls, text is always better"),
            ("event", "{bestie} and i did a road trip last weekend, so fun"),
            ("preference", "im allergic to shellfish fyi")]

CHITCHAT = [("whats a good show to binge rn", "If you want something light, a workplace comedy is easy to drop in "
             "and out of; for something gripping, try a short limited series."),
            ("its so humid today i cant", "Ugh, sticky days are the worst. A cold shower and a fan might help."),
            ("too much caffeine, my hands are shaking lol", "Some water and a snack with protein can take the "
             "edge off. Maybe skip the next cup."),
            ("easy dinner idea? i have eggs and like half a zucchini", "Frittata! Slice the zucchini thin, soften "
             "it in a pan, pour beaten eggs over, and finish it under the broiler."),
            ("need a good audiobook for my commute", "A funny memoir read by the author is great for commutes, or "
             "a twisty mystery if you like cliffhangers."),
            ("why am i always tired at 3pm", "The mid-afternoon dip is partly just circadian rhythm; a short walk, "
             "some daylight and water often help more than sugar."),
            ("my succulent is turning mushy", "Mushy usually means it's getting too much water. Skip watering until the "
             "pot is bone dry and check it has a drainage hole."),
            ("tell me something random", "Wombats produce cube-shaped poop, which stops it from rolling away."),
            ("nap or laundry, go", "Laundry in the machine, then nap while it runs. Everyone wins."),
            ("is it bad i had chips for lunch", "Not the end of the world. Maybe an apple later to balance it out."),
            ("how do u get gum out of hair", "Rub some peanut butter or oil into it, wait a few minutes, then comb "
             "it out gently."),
            ("the upstairs neighbor is vacuuming at midnight again", "That's rough. A friendly note might work, or "
             "a white noise app for tonight."),
            ("fall or spring, which is better", "Hard call. Fall has the cozy vibes, spring has the hope."),
            ("finally cleaned out my car", "That feels amazing. Enjoy the clean floor mats while they last."),
            ("how do i keep cilantro from wilting", "Trim the stems, stand it in a jar of water like flowers, and "
             "loosely cover the top with a bag in the fridge."),
            ("my phone storage is full again", "Old videos and message attachments are usually the culprits. "
             "Offloading unused apps helps too."),
            ("neck hurts from looking down at my phone all day", "Try holding the phone higher and doing a few "
             "chin tucks and shoulder rolls every hour."),
            ("hot take, ranch goes on everything", "Bold. I respect the commitment."),
            ("i wanna read more but my thumbs just open tiktok", "Try leaving a paperback on your pillow and "
             "reading just a few pages before bed - small streaks add up."),
            ("what should i do this sunday, im bored", "A new hiking trail, a thrift store crawl, or trying a "
             "recipe you've been putting off.")]
REQUESTS = [("can u write a quick text to {stranger} from {org} saying i cant do {day} and ask if {n} mins on "
             "the phone works instead",
             "Here you go:\n\nHi {stranger}, sorry, {day} won't work for me after all. Could we do a {n}-minute "
             "phone call instead? Let me know what time suits you. - {me}"),
            ("tldr this pls: '{org} had {big} complaints this year, mostly about late bills, {stranger} wants {n} "
             "more staff'",
             "{org} got {big} complaints this year, mostly late bills, and {stranger} is asking for {n} more staff."),
            ("name ideas for a dog grooming van, owner is {stranger}",
             "Some options: {stranger}'s Sudsy Paws, Wag Wagon, The Fluff Bus, Suds on Wheels, Groom Room To Go."),
            ("write a silly poem abt a raccoon that stole {few} tacos", "A raccoon crept out past the shed, / with "
             "{few} stolen tacos it fled; / it ate every shell, / then burped rather well, / and napped in my "
             "flower bed instead."),
            ("fix the spelling: 'hi {stranger}, thank u for the {n} chairs, we definately recieved them {day}'",
             "'Hi {stranger}, thank you for the {n} chairs, we definitely received them {day}.' - fixed "
             "'definitely' and 'received'."),
            ("help me answer {stranger}, they want ${n} back bc the package came late",
             "Hi {stranger}, so sorry the package was late! I've refunded ${n} - give it a few days to land in your account."),
            ("how do u say 'the store closes in {n} minutes' in french", "'Le magasin ferme dans {n} minutes.'"),
            ("make this nicer: '{stranger} u still havent paid {org} the ${big}'",
             "'Hi {stranger}, just a friendly reminder that the ${big} balance with {org} is still open. Thanks!'"),
            ("packing list for {few} days at the beach pls",
             "Swimsuits, cover-up, sunscreen, hat, sunglasses, flip-flops, a light hoodie for evenings, clothes for "
             "{few} days, a beach towel, a water bottle and a book."),
            ("explain what a credit score is like im 10", "It's like a grade for how well you pay back money you "
             "borrowed. Pay on time and the grade goes up; pay late and it goes down.")]
DISTRACTORS = ["if i did everything on my list id need {few} clones",
               "what was that app for tracking subscriptions called?",
               "honestly no clue how to do my taxes this yr",
               "i should prob floss more but lets be real",
               "someday im gonna learn spanish for real",
               "already paid the water bill last wk",
               "would be nice if the wifi worked for once",
               "i could clean out the fridge this weekend, or not lol"]
UNSURE = ["Hmm, that hasn't come up with me.", "Sorry, you never mentioned it to me.",
          "Not something you've mentioned to me.", "I don't know that one - want to look it up?"]
SHRUG = ["Haha, relatable.", "Totally fair.", "Valid, honestly.", "Big mood.", "No judgment here."]
SUGGEST = [("am i forgetting anything", "Maybe double-check your calendar for {day} and send a quick heads-up to "
            "anyone who's waiting on you."),
           ("thoughts??", "You could sleep on it before deciding - but honestly either way seems fine."),
           ("wwyd", "Personally I'd set aside some time on {day} to knock it out in one go."),
           ("other ideas??", "A shared note with everyone's bits might keep things from slipping; want me to "
            "sketch one?")]
