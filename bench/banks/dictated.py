"""Phrase bank 'dictated'. The user talks to their phone and the assistant gets the speech-to-text transcript:
long run-on sentences with few commas, "um"/"uh"/"like", self-interruptions ("no wait"), numbers sometimes
spelled out in the fixed text, the odd homophone slip (there/their, for/four, to/too, right/write, by/buy) and
questions that lose their question mark. Written independently of every other bank: no names, topics or
sentences in common (gen.py --check verifies). Placeholders: {v}/{old} slot values, {topic}, thread entities,
{me} the user, {n}/{big}/{few} fresh numbers, {day}, {due}, {stranger}/{org} (one-off requests only)."""

NAME = "dictated"

USERS = ["Wojciech Halloran", "Perpetua Osei", "Lorcan Dubois", "Ifeoma Granger", "Bartholomew Reyes",
         "Svetlana Achebe", "Cormac Villanueva", "Philippa Nakashima", "Ezekiel Brannigan", "Marisol Thorvaldsen",
         "Augustin Mbeki", "Henrietta Castellanos", "Dmitri Oyelaran", "Rosalind Featherstone", "Tobias Ekwueme",
         "Ottoline Sarkar"]

PEOPLE = ["Thaddeus", "Ottavia", "Bertrand", "Wenceslas", "Eamon", "Thorhild", "Ingeborg", "Clementine", "Lazlo",
          "Marguerite", "Cosimo", "Henrike", "Anselm", "Petronella", "Florizel", "Fenella", "Gervase", "Hyacinth",
          "Isidore", "Jessamy", "Kasimir", "Lucasta", "Mungo", "Oonagh", "Orrin", "Pelagia", "Rostislav", "Sabela",
          "Tiberius", "Ysolde", "Vasilisa", "Osric", "Xanthe", "Yevgeny", "Zuleika", "Alaric", "Benedetta",
          "Leofric", "Dagny", "Eulalia"]
STRANGERS = ["Mrs. Abernathy", "Desmond Fairweather", "Dr. Okonkwo", "Lavinia Crouch", "Rupert Stavros",
             "Cornelius Pike", "Edwina Sharpe", "Dr. Halvorsen", "Mr. Quigley", "Bernadette Loy",
             "Solomon Achterberg", "Mirabel Goodenough"]
ORGS = ["Thistledown Water", "Marrow and Finch Solicitors", "Kettlebrook Council", "Gannet Mobile",
        "Ironvale Credit Union", "Peregrine Veterinary", "Wrenfield Pharmacy", "Blackthorn Energy",
        "Stillwater Lettings"]

# --- thread pools --------------------------------------------------------------------------------------------
HOSPITALS = ["Saint Aldhelm Hospital", "Westmoor General", "Calder Valley Infirmary", "Hawthorne Orthopaedic Centre",
             "Greyfriars Clinic", "Millbrook Community Hospital"]
CARE_AGENCIES = ["Homeward Care", "Kindly Hands", "Silverbirch Homecare", "Lanternlight Care",
                 "Evergreen Companions"]
TRUCKS = ["Rolling Ember", "Wheelhouse Kitchen", "Little Griddle", "Curbside Comet", "Hatchback Hotplate"]
DISHES = ["jerk chicken wrap", "halloumi flatbread", "kimchi fries", "pulled jackfruit bun", "smoked brisket roll",
          "katsu sando"]
MARKETS = ["Cooperage Lane Market", "Eastgate Night Market", "Saltworks Yard", "Old Tannery Market",
           "Harbour Lights Market", "Bellfield Square"]
SUPPLIERS = ["Greenhollow Produce", "Marlowe Meats", "Cobblestone Wholesale", "Fenwick Catering Supply",
             "Tarrant Farms"]
CARMODELS = ["Skoda Octavia", "Honda Jazz", "Toyota Auris", "Kia Ceed", "Hyundai Tucson", "Vauxhall Astra"]
DEALERS = ["Pennington Motors", "Roadstar Autos", "Crossley Car Centre", "Ashdown Autos", "Meadowside Motors"]
INSURERS = ["Bulwark Insurance", "Fairway Mutual", "Lodestar Cover", "Harrowgate Assurance"]
TROUPES = ["Ravensworth Players", "Quayside Amateur Dramatics", "Lamplighter Theatre Company", "Moth and Candle Players"]
PARTS = ["Lady Bracknell", "Malvolio", "Mrs Malaprop", "the Stage Manager", "Prospero", "Widow Twankey"]
THEATRES = ["Corn Exchange Theatre", "Little Gem Playhouse", "Marlpit Arts Centre", "Octagon Studio",
            "Wharfside Playhouse", "Kiln Theatre Room"]
INSTALLERS = ["Sunward Energy", "Brightroof Solar", "Helios Home Power", "Skyharvest Renewables", "Daybreak Solar"]
BATTERIES = ["Voltcraft Home Cell", "Sundial Battery", "Ampstore Plus", "Lumacell Pro", "Keelson Powerbank"]
BOATNAMES = ["Kingfisher Dawn", "Slow Lorna", "Mayfly Wanderer", "The Idle Heron"]
MARINAS = ["Tattershall Basin", "Foxton Wharf", "Sheepwash Marina", "Lowmoor Moorings", "Bascote Basin",
           "Kennet Reach Marina"]
ENGINES = ["Beta Marine", "Vetus diesel", "Barrus Shire", "Lister Petter", "Kubota marine unit"]
HOMETOWNS = ["Dundee", "Limerick", "Galway", "Swansea", "Invercargill", "Dunedin"]
EMPLOYERS = ["Quarrystone Logistics", "Fernleaf Print Works", "Halliwell Dental", "Tidewater Council"]
PETS = ["Sardine", "Professor Whiskers", "Lentil", "Mister Toast"]

PERSONAL_ENTS = dict(partner="PEOPLE", cousin="PEOPLE", city="HOMETOWNS", employer="EMPLOYERS", pet="PETS")

THREADS = [
    dict(
        name="dad's hip surgery", short=["dad's hip", "dad's surgery", "my dad's recovery", "the hip stuff"],
        ents=dict(dad_gp="PEOPLE", sibling="PEOPLE", nurse="PEOPLE", dadneighbour="PEOPLE"),
        slots=[
            dict(id="surgery_date", kind="date", type="event", topic="dad's operation date",
                 q=["um when is dad's operation again", "what day did they give us for dad's hip op",
                    "remind me when dad goes in for the surgery"],
                 say=["dad's hip operation is on {v}", "the op is on um no wait hang on yeah it's {v}", "they've booked dad in for the surgery on {v} finally",
                      "so the hospital rang and the op is {v} which is sooner than we thought",
                      "dad goes under the knife on {v} um his words not mine",
                      "the surgery date they gave us is {v}"]),
            dict(id="hospital", kind="place", pool="HOSPITALS", type="knowledge", topic="dad's hospital",
                 q=["which hospital is dad having it done at", "where's dad having the operation",
                    "what's that hospital called where dad's going"],
                 say=["it's being done at {v}", "dad's having the op at {v} not the one in town",
                      "they're sending him to {v} for the operation", "the surgeon operates out of {v}"]),
            dict(id="care_agency", kind="name", pool="CARE_AGENCIES", type="decision", topic="the home care agency",
                 q=["which care company did we go with for dad", "who are the carers coming from",
                    "what's the agency that's sending carers to dad's"],
                 say=["we went with {v} for dad's carers", "the carers are coming from {v}",
                      "so we signed dad up with {v} after a lot of dithering",
                      "{v} are doing the home visits once he's out"]),
            dict(id="carer_visits", kind="number", num=(3, 14), fmt=["{} visits a week", "{} visits"],
                 type="plan", topic="the carer visits per week",
                 q=["how many times a week are the carers coming", "how many carer visits is dad getting"],
                 say=["dad's getting {v} from the carers", "they've agreed to {v} to start with",
                      "the care plan has him down for {v}", "we settled on {v} which um should be enough"]),
            dict(id="physio", kind="name", pool="PEOPLE", type="relationship", topic="dad's physio",
                 q=["who's dad's physio going to be", "what's the name of the physiotherapist for dad"],
                 say=["his physio is someone called {v}", "{v} is doing dad's physio after the op",
                      "the physio they've assigned is {v} who dad already thinks is bossy"]),
        ],
        facts=[("relationship", "{sibling} is my only sibling and lives like three hours away so um it's mostly on me"),
               ("decision", "we decided dad stays at his own place not ours he was very clear about that"),
               ("event", "dad had his pre op assessment on {day} and they said his blood pressure was fine"),
               ("knowledge", "the consultant said it's usually about {few} weeks before he can drive again"),
               ("relationship", "{dad_gp} is dad's GP and honestly has been brilliant with all of this"),
               ("plan", "I'm going to stay over at dad's the first few nights after he gets home"),
               ("preference", "dad would rather die than use a walking frame so um good luck to the physio"),
               ("relationship", "dad's neighbour {dadneighbour} has a key and pops in most mornings"),
               ("event", "dad fell on the garden step back in the winter which is how all this started"),
               ("plan", "dad's got to where compression socks for a month after and he's thrilled about that obviously"),
               ("identity", "dad's seventy eight and stubborn as anything"),
               ("knowledge", "{nurse} on the orthopaedic ward said to bring slip on shoes with a grip")],
        loops=[dict(acts=["pick up dad's prescription from the chemist", "collect dad's painkillers from the pharmacy"],
                    opens=["still waiting on the chemist to get dad's painkillers in so I've got to swing by there again"],
                    done=["dad's tablets are sitting on his kitchen counter now in one of those pill boxes",
                          "got dad's painkillers from the chemist on the way back from work", "the chemist handed over dad's bag of meds so that's him stocked up for the month"]),
               dict(acts=["get grab rails put in dad's bathroom", "sort out a handrail for dad's shower"],
                    opens=["dad's bathroom still has nothing to hold on to and that really worries me"],
                    done=["there's two grab rails either side of dad's loo now and one in the shower",
                          "the handyman came by and dad's bathroom has rails now", "dad can hold on to something in the shower now the rails are screwed into the wall"]),
               dict(acts=["ring the council about a blue badge for dad", "apply for dad's disabled parking badge"],
                    opens=["uh the blue badge thing for dad I haven't even looked at it"],
                    done=["dad's blue badge turned up in the post this morning",
                          "the council approved the parking badge and he's over the moon about it", "dad's got his parking badge on the dashboard already showing off"]),
               dict(acts=["set up meal deliveries for dad", "get dad some ready meals delivered for the first fortnight"],
                    opens=["dad still hasn't got anything sorted food wise for when he's home and he can't stand at the cooker"],
                    done=["dad's freezer is full of those little meals now they came on {day}",
                          "the meal people deliver to dad every other day starting this week", "the first box of meals got dropped at dad's and he said the fish pie was alright high praise"]),
               dict(acts=["get {sibling} to cover a weekend at dad's", "ask {sibling} to take a weekend shift with dad"],
                    opens=["I keep meaning to ask {sibling} to do a weekend with dad and keep chickening out"],
                    done=["{sibling} is driving down to dad's for the weekend after next",
                          "{sibling} has dad covered for a weekend so I get a break for once", "{sibling} said yes to a weekend at dad's no arguments for once"])],
        asks=[("what should dad pack for a hip replacement stay in hospital",
               "Loose comfortable clothes, slip-on shoes with grip, a long-handled shoe horn, his medication list, "
               "a phone charger with a long cable, and something to read."),
              ("how long does it take people to walk normally after a hip replacement",
               "Most people walk with an aid within a day or two, move to a stick after a few weeks, and walk "
               "fairly normally by around six to twelve weeks, depending on the person."),
              ("honestly I'm so tired of hospital car parks", "That's completely fair, they're exhausting. Is there "
               "anyone who could take one of the drives off you?"),
              ("dad keeps saying he's fine and he's clearly not fine", "That's a very common dad move. Sometimes "
               "asking about specific tasks rather than how he feels gets a more honest answer.")],
        maybe=["if dad had just used the handrail we wouldn't be here but there's no point saying that to him",
               "in an ideal world he'd move into a bungalow but he's never leaving that house",
               "what's the word for the thing that helps you put socks on without bending"],
    ),
    dict(
        name="food truck", short=["the truck", "the food truck", "{truck}", "the van business"],
        ents=dict(truck="TRUCKS", cook="PEOPLE", inspector="PEOPLE", yardowner="PEOPLE"),
        slots=[
            dict(id="market", kind="place", pool="MARKETS", type="decision", topic="our market pitch",
                 q=["where's our pitch for the truck again", "which market did we get the spot at",
                    "where are we parking {truck} on weekends"],
                 say=["we got a pitch at {v}", "{truck} is going to be trading at {v} on weekends",
                      "so the spot we landed is {v} right by the entrance", "our regular pitch is {v}"]),
            dict(id="pitch_fee", kind="number", num=(40, 180), fmt=["${} a day", "{} dollars a day"],
                 type="knowledge", topic="the pitch fee",
                 q=["how much is the pitch costing us", "what do we pay for the pitch per day"],
                 say=["the pitch is {v}", "pitch is like um I wrote it down somewhere yeah {v}", "they charge us {v} for the spot", "pitch fee works out at {v} which is fine",
                      "we're paying {v} to park there"]),
            dict(id="first_trade", kind="date", type="plan", topic="our first trading day",
                 q=["when's the first day we're open", "what date do we start trading",
                    "when does {truck} open for real"],
                 say=["first trading day is {v}", "we open the hatch on {v}", "{truck} starts serving on {v}",
                      "we're aiming to do our first service on {v} fingers crossed"]),
            dict(id="signature", kind="thing", pool="DISHES", type="preference", topic="the signature dish",
                 q=["what's our main dish going to be", "which dish are we leading the menu with"],
                 say=["the big seller is going to be the {v}", "we're leading with the {v}",
                      "top of the menu board is the {v}", "everyone who tried it voted for the {v}"]),
            dict(id="supplier", kind="name", pool="SUPPLIERS", type="decision", topic="our main supplier",
                 q=["who are we getting our stock from", "which supplier did we sign up with"],
                 say=["our stock is coming from {v}", "we signed up with {v} for supplies",
                      "{v} is delivering twice a week", "we're buying through {v} now"]),
        ],
        facts=[("relationship", "{cook} is my business partner on the truck {cook} cooks and I do the numbers"),
               ("decision", "we're cash and card but no cheques obviously it's not the nineties"),
               ("event", "the van failed its gas safety check on {day} because of one dodgy valve"),
               ("knowledge", "the generator burns through about {n} litres on a busy Saturday"),
               ("plan", "we want to do weddings and private parties once the markets are steady"),
               ("relationship", "{inspector} from environmental health is the one doing our hygiene rating"),
               ("preference", "I want everything in compostable boxes none of that polystyrene rubbish"),
               ("decision", "we're keeping the menu to five things max so the queue moves"),
               ("decision", "we're doing a veggie option to because like half the market crowd is vegetarian"),
               ("relationship", "{yardowner} lets us park the van in the yard behind the pub overnight for a few quid")],
        loops=[dict(acts=["get the hygiene certificate sorted", "book the food hygiene course for me and {cook}"],
                    opens=["we still can't legally sell anything till the hygiene certificate's sorted"],
                    done=["me and {cook} both have our hygiene certificates framed in the van now",
                          "passed the hygiene course so we've got the paper for the wall", "the certificate came through for both of us its in a plastic sleeve by the hatch"]),
               dict(acts=["order the menu board", "get the chalkboard menu made up"],
                    opens=["the menu board's the last big thing we're missing"],
                    done=["the menu board is bolted onto the side of {truck} and it looks amazing",
                          "sign guy delivered the menu board on {day}", "the menu board's up on {truck} prices and all"]),
               dict(acts=["set up the card reader", "get a card machine for the hatch"],
                    opens=["we're still cash only at the moment which is going to lose us customers"],
                    done=["card reader's charged and paired with my phone",
                          "we took a test payment on the card machine and it went through", "people can tap their cards at the hatch now the reader's working"]),
               dict(acts=["get public liability insurance for the truck", "insure the van for trading"],
                    opens=["gotta get the liability cover before the market lets us in"],
                    done=["the liability policy came through and I emailed it to the market office",
                          "we're covered now the insurance documents landed in my inbox", "the market office has a copy of our liability cover on file now"]),
               dict(acts=["design a logo for {truck}", "ask {cook}'s nephew to draw us a logo"],
                    opens=["{truck} still hasn't got a logo it's just a white van with a hatch"],
                    done=["we've got a logo now {cook}'s nephew sent three and we picked the middle one",
                          "the logo's on the stickers and the aprons already", "the logo files arrived and the printer's doing the van wrap next week"])],
        asks=[("how much stock should we bring on a first market day",
               "Err on the side of a little less than you hope to sell: plan for a modest crowd, keep extra in a "
               "cool box if you can, and note what sells out so you can adjust next time."),
              ("what's a sensible way to price street food",
               "Work out ingredient and packaging cost per portion, aim for that to be roughly a quarter to a third "
               "of the price, then sanity-check against the stalls around you."),
              ("my feet are destroyed from standing in the van all day", "Anti-fatigue mats and cushioned insoles "
               "make a real difference over a long service. Rest them tonight."),
              ("I dreamt about onions last night that's how deep in this I am", "That's commitment. Hopefully they "
               "were nicely caramelised.")],
        maybe=["if we had a second van we could do two markets at once but we can barely run one",
               "someday I'd like a proper little restaurant with chairs and everything",
               "what's it called when you sell the leftover food cheap at the end of the day"],
    ),
    dict(
        name="buying a used car", short=["the motor hunt", "the new motor", "the new car", "the {model} thing"],
        ents=dict(model="CARMODELS", mechanic="PEOPLE", seller="PEOPLE"),
        slots=[
            dict(id="car_we_chose", kind="thing", pool="CARMODELS", type="decision", topic="the car we're buying",
                 q=["which car did we decide on", "what model are we getting in the end"],
                 say=["we're going for the {v}", "it's the {v} we test drove with the blue interior",
                      "we put a holding deposit on the {v}", "so the car is a {v} in the end"]),
            dict(id="car_price", kind="number", num=(4, 19), fmt=["${},000", "{} grand"], type="decision",
                 topic="the car price",
                 q=["what are we paying for the car in the end", "what did we agree on price wise for the car"],
                 say=["we agreed {v} for it", "the price came down to {v} after a bit of haggling",
                      "we're paying {v} all in with the warranty", "he accepted {v} which I'm pretty happy with"]),
            dict(id="dealer", kind="name", pool="DEALERS", type="knowledge", topic="the dealership",
                 q=["which garage are we buying it from", "what's the dealer called again"],
                 say=["we're buying it through {v}", "it's from {v} out on the ring road",
                      "the dealer is {v}", "{v} have it on their forecourt"]),
            dict(id="pickup", kind="date", type="plan", topic="the car pickup day",
                 q=["when do we collect the car", "what day are we picking the car up"],
                 say=["we collect the car on {v}", "pick up day for the car is {v}",
                      "they said it'll be valeted and ready on {v}"]),
            dict(id="insurer", kind="name", pool="INSURERS", type="decision", topic="our car insurer",
                 q=["who's insuring the car", "which insurance company did we pick for the car"],
                 say=["we're insured with {v}", "I went with {v} for the car cover",
                      "cheapest quote was {v} so we took that"]),
        ],
        facts=[("decision", "we're getting an automatic this time because my left knee hates the clutch"),
               ("relationship", "{mechanic} is the mechanic my uncle swears by and is checking it over for us"),
               ("event", "the old car's gearbox finally gave up on the motorway on {day}"),
               ("knowledge", "the one we like has done about {big} miles which isn't bad for its age"),
               ("preference", "I really want heated seats I don't care what anyone says"),
               ("plan", "we'll sell the old car for scrap or whatever we can get"),
               ("relationship", "{seller} at the garage keeps calling me mate which I find weird"),
               ("decision", "no more diesels we're done with diesels")],
        loops=[dict(acts=["get {mechanic} to give the car a once over", "have the car inspected properly"],
                    opens=["still waiting on {mechanic} to have a look under the bonnet before we hand over money"],
                    done=["{mechanic} went over it on {day} and said the brakes are fine and its good to go",
                          "the inspection came back clean apart from a wiper blade", "{mechanic} had a good poke around underneath and reckons it's solid"]),
               dict(acts=["transfer the logbook into my name", "sort the ownership paperwork for the car"],
                    opens=["the car's still technically registered to the old owner which makes me nervous"],
                    done=["the ownership transfer went through online and I've got the reference",
                          "new logbook with my name on it came in the post", "the car's officially in my name now the letter came"]),
               dict(acts=["get rid of the old car", "sell the old car to the scrap place"],
                    opens=["the old car's still sat on the drive leaking oil"],
                    done=["scrap yard towed the old car away and gave us {n} quid for it",
                          "the old car's gone the driveway finally looks normal", "someone from the scrap place drove off in the old car and paid me cash"]),
               dict(acts=["renew the residents parking permit", "sort the parking permit for the new reg"],
                    opens=["I'm still parking the new car on the old permit and I'm going to get a ticket"],
                    done=["the parking permit's updated for the new reg",
                          "council switched the permit over to the new car", "the new permit's stuck in the windscreen so no more parking tickets"])],
        asks=[("what should I check on a used car before buying it",
               "Service history, signs of rust or accident repair, tyre wear, how it starts from cold, any warning "
               "lights, and whether the paperwork matches the car."),
              ("is it worth paying for an extended warranty on a used car",
               "It depends on the car's age and reliability record; for an older model with pricey parts it can be "
               "worth it, but read what's excluded before you sign."),
              ("car salesmen make me want to lie down in a dark room", "Totally understandable. Going in with a "
               "walk-away number written down helps a lot."),
              ("I test drove it and I think I'm in love with a hatchback", "Sometimes a car just feels right. "
               "Enjoy it.")],
        maybe=["if we'd kept up the servicing on the old one it might have lasted another year",
               "one day I'll get something electric but not on this budget",
               "what do you call that thing where they check the car's history for finance"],
    ),
    dict(
        name="amateur theatre show", short=["the panto thing", "the show", "rehearsals", "the {troupe} show"],
        ents=dict(troupe="TROUPES", castmate="PEOPLE", stagehand="PEOPLE", prompter="PEOPLE"),
        slots=[
            dict(id="my_part", kind="thing", pool="PARTS", type="knowledge", topic="my part in the play",
                 q=["what part am I playing again", "which role did I get in the show"],
                 say=["I got cast as {v}", "I'm playing {v} can you believe it",
                      "the director gave me {v} which is way to many lines for me",
                      "my part is {v}"]),
            dict(id="first_night", kind="date", type="event", topic="the first night of the show",
                 q=["when's opening night", "what's the date of the first performance"],
                 say=["opening night is {v}", "we open on {v}", "the first show is {v} so like not long",
                      "curtain up is {v}"]),
            dict(id="theatre", kind="place", pool="THEATRES", type="knowledge", topic="the theatre",
                 q=["where are we performing", "what's the venue for the show"],
                 say=["we're performing at {v}", "the show's on at {v}", "{v} is where we're doing it",
                      "they booked {v} for the run"]),
            dict(id="ticket_price", kind="number", num=(8, 35), fmt=["${} a ticket", "${}"], type="decision",
                 topic="the price of a seat",
                 q=["how much are tickets", "what are we charging for tickets"],
                 say=["seats are going for {v}", "we're selling seats at {v}", "the committee set tickets at {v}"]),
            dict(id="director", kind="name", pool="PEOPLE", type="relationship", topic="the director",
                 q=["who's directing this year", "who is the director on the play"],
                 say=["{v} is directing", "the director this time is {v}", "{v} took on directing this year"]),
        ],
        facts=[("relationship", "{castmate} is playing opposite me and we keep cracking up in the serious bits"),
               ("decision", "we're doing it in modern dress to save money on costumes"),
               ("event", "the read through was on {day} and I fluffed my very first line"),
               ("knowledge", "the run is {few} nights plus a matinee on the Saturday"),
               ("preference", "I'd rather have a small part and nail it than a big one and wing it"),
               ("relationship", "{stagehand} is building the set in a garage round the back of the church"),
               ("plan", "we've got a full tech rehearsal the weekend before we open"),
               ("relationship", "{prompter} is on prompt duty and is very very stern about it")],
        loops=[dict(acts=["learn my lines for the second act", "get act two off book"],
                    opens=["I'm still on the script for the whole of act two which is embarrassing"],
                    done=["I can get through act two without the script now {castmate} tested me",
                          "act two is off book I ran it in the car the whole way home", "I did act two at rehearsal without the script and didn't dry once"]),
               dict(acts=["get measured for my costume", "go to the costume fitting"],
                    opens=["wardrobe keeps asking me when I'm coming in for measurements"],
                    done=["the costume lady has my measurements and I've got a wig on order",
                          "had the fitting on {day} and the dress fits apart from the sleeves", "wardrobe has everything they need from me and the costume's being made"]),
               dict(acts=["sell tickets to people at work", "flog some tickets to my colleagues"],
                    opens=["I've got a book of tickets in my bag that nobody at work has bought yet"],
                    done=["my work lot bought {n} tickets between them",
                          "the ticket book is empty half the office is coming", "every ticket in my book's been paid for mostly by the finance team"]),
               dict(acts=["return the borrowed props to the school", "drop the props back at the school"],
                    opens=["the borrowed props are still piled up in my hallway"],
                    done=["the props are back in the school drama cupboard",
                          "dropped the props off and the caretaker signed for them", "the school has all its props back and nothing broken"])],
        asks=[("how do actors learn lines fast",
               "Break the script into small chunks, say the lines out loud rather than reading silently, learn the "
               "cue line with each of yours, and run them while walking or doing chores."),
              ("what do you do if you forget a line on stage",
               "Stay in character, paraphrase the sense of the line, or give your scene partner a look to pick it "
               "up. The audience rarely notices."),
              ("I'm so nervous about opening night I could be sick", "Completely normal. Nerves often mean you "
               "care, and they usually settle once the first scene is under way."),
              ("the director made us do trust exercises and I wanted to vanish", "Ha, a classic. At least it's "
               "over now.")],
        maybe=["if the show does well they might do a summer one but I'm not thinking about that",
               "in another life I'd have gone to drama school",
               "what's that superstition about not saying the name of the Scottish play"],
    ),
    dict(
        name="solar panels on the roof", short=["the solar", "the panels", "the solar install", "the roof panels"],
        ents=dict(surveyor="PEOPLE", roofer="PEOPLE", nextdoor="PEOPLE"),
        slots=[
            dict(id="installer", kind="name", pool="INSTALLERS", type="decision", topic="the solar installer",
                 q=["which company is putting the panels up", "who did we pick to do the solar"],
                 say=["we went with {v} for the panels", "{v} are doing the install",
                      "so after like six quotes we picked {v}", "the installer is {v} they had the best reviews"]),
            dict(id="panel_count", kind="number", num=(6, 24), fmt=["{} panels", "{}"], type="plan",
                 topic="the number of panels",
                 q=["how many panels are going on the roof", "how many panels did the survey say we could fit"],
                 say=["we're getting {v} on the south side", "the survey says we can fit {v}",
                      "the quote is for {v} which um covers most of the roof"]),
            dict(id="install_day", kind="date", type="plan", topic="the install date",
                 q=["when are the panels going in", "what day is the scaffolding going up for the solar"],
                 say=["the install is booked for {v}", "they're putting the panels up on {v}",
                      "scaffolding goes up the day before and the panels go on {v}",
                      "install day is uh no wait that was the survey the install is {v}"]),
            dict(id="battery", kind="thing", pool="BATTERIES", type="decision", topic="the home battery",
                 q=["which battery are we having with the panels", "what battery did we go for"],
                 say=["we're adding a {v} in the garage", "the battery's going to be a {v}",
                      "we upgraded the quote to include a {v}"]),
            dict(id="grant", kind="number", num=(400, 2500), fmt=["${}", "{} dollars"], type="knowledge",
                 topic="the solar grant",
                 q=["how much is the grant for the panels", "what's the grant knocking off the solar"],
                 say=["the grant covers {v} of it", "we qualified for a grant of {v}",
                      "the council scheme gives us {v} back"]),
        ],
        facts=[("relationship", "{surveyor} did the roof survey and climbed up there in trainers which scared me"),
               ("decision", "we're not doing the panels on the front because of the conservation area thing"),
               ("event", "the electricity bill on {day} was the last straw honestly"),
               ("knowledge", "they reckon the whole system pays for itself in about {n} years"),
               ("relationship", "{roofer} is replacing the cracked tiles first so the panels go on a sound roof"),
               ("preference", "I want the app that shows how much we're generating I'm going to be obsessed"),
               ("knowledge", "apparently our roof faces the write way for panels which is lucky"),
               ("plan", "we'll run the washing machine in the middle of the day once it's all in"),
               ("relationship", "{nextdoor} next door got panels last year and keeps bragging about their bills")],
        loops=[dict(acts=["send the installer photos of the fuse box", "get pictures of the consumer unit over to the installer"],
                    opens=["the installer keeps asking for photos of the fuse box and I keep forgetting"],
                    done=["the installer has the fuse box photos they said it's all compatible",
                          "emailed over the pictures of the consumer unit last night", "the fuse box pictures went over and the installer replied with a thumbs up"]),
               dict(acts=["apply for the solar grant", "fill in the council's solar grant application"],
                    opens=["the grant application is still half filled in on my laptop"],
                    done=["grant application's submitted and I've got a reference number",
                          "council emailed to say they've received the solar grant form", "the grant people have our application and said we'll hear in a few weeks"]),
               dict(acts=["clear the junk out of the loft for the cables", "make room in the loft for the installers"],
                    opens=["the loft is still rammed with boxes and the installers need to get through it"],
                    done=["the loft's empty enough to walk across now the tip run happened on {day}",
                          "there's a clear path through the loft for the cable guys", "loft's cleared my partner took three car loads to the tip"]),
               dict(acts=["tell the neighbours about the scaffolding", "warn {nextdoor} the scaffolding's going up"],
                    opens=["I haven't said anything to the neighbours about the scaffolding yet"],
                    done=["{nextdoor} knows about the scaffold and is fine with it",
                          "popped a note through every door on the row about the scaffolding", "the whole street knows the scaffolding's coming so nobody can complain"])],
        asks=[("do solar panels still work when it's cloudy",
               "Yes, though output drops. On a heavily overcast day a system might produce a fraction of its sunny "
               "output, so the yearly total matters more than any single day."),
              ("is a home battery worth the extra money",
               "It's most worthwhile if you're out during the day and use a lot of power in the evening, or if your "
               "tariff has cheap overnight rates you can charge from."),
              ("I've been staring at the sky all week like a weather forecaster", "Ha, that's a very solar-owner "
               "thing to do. The app will feed that habit nicely."),
              ("the quotes all use different words for the same stuff it's so confusing", "It really is. Lining "
               "them up by system size, panel and inverter make, warranty and total price makes them easier to "
               "compare.")],
        maybe=["if we'd done this ten years ago we'd have made the money back by now",
               "one of these days I'll get a heat pump too but let's not go crazy",
               "what's the thing called that turns the roof power into normal power"],
    ),
    dict(
        name="doing up the narrowboat", short=["the old tub", "the narrowboat", "the boat project", "{boat}"],
        ents=dict(boat="BOATNAMES", lockkeeper="PEOPLE", boatfriend="PEOPLE"),
        slots=[
            dict(id="marina", kind="place", pool="MARINAS", type="knowledge", topic="the boat's mooring",
                 q=["where's {boat} moored at the minute", "which marina is the boat in"],
                 say=["{boat} is moored at {v}", "we've got a berth at {v} for the winter",
                      "she's tied up at {v} which is like ten minutes on the bike"]),
            dict(id="mooring_fee", kind="number", num=(900, 3200), fmt=["${} a year", "{} dollars a year"],
                 type="knowledge", topic="the mooring fee",
                 q=["how much is the mooring costing", "what do we fork out for the berth every year"],
                 say=["the mooring is {v}", "they charge {v} for the berth which includes electric hookup",
                      "the berth costs us {v} ouch"]),
            dict(id="relaunch", kind="date", type="plan", topic="the date she goes back in",
                 q=["when does {boat} go back in the water", "what date is the relaunch"],
                 say=["{boat} goes back in the water on {v}", "the crane's booked to drop her back in on {v}",
                      "relaunch is uh no wait that was the dry dock date the relaunch is {v}"]),
            dict(id="engine", kind="thing", pool="ENGINES", type="decision", topic="the new engine",
                 q=["which engine are we putting in", "what engine did we decide on for the boat"],
                 say=["we're fitting a {v}", "the old engine's coming out and a {v} is going in",
                      "we ordered a reconditioned {v} in the end"]),
            dict(id="boat_engineer", kind="name", pool="PEOPLE", type="relationship", topic="the boat engineer",
                 q=["who's the engineer doing the boat", "who's fitting the engine on the boat"],
                 say=["{v} is the engineer on the job", "the engine's being fitted by {v}",
                      "{v} does all the boats at the yard and is doing ours"]),
        ],
        facts=[("relationship", "{lockkeeper} works the lock by the marina and always has the kettle on"),
               ("decision", "we're painting her dark green with cream panels like she was originally"),
               ("event", "we found a whole bird's nest in the engine bay on {day}"),
               ("knowledge", "the hull is about {n} feet long which is on the big side for these canals"),
               ("relationship", "{boatfriend} lives aboard a couple of boats down and lends us tools"),
               ("event", "we herd a horrible clunk from the propeller on {day} turned out to be a shopping trolley"),
               ("preference", "I'd rather have a wood burner than one of those diesel heaters"),
               ("plan", "the idea is to take {boat} out for a week on the canal once it's all shipshape")],
        loops=[dict(acts=["black the hull before relaunch", "get the bottom of the boat repainted"],
                    opens=["the hull's still bare in patches and it can't go back in like that"],
                    done=["the hull's got two fresh coats of blacking and it looks mint",
                          "{boatfriend} and me did the blacking over the weekend so the bottom's protected", "the hull's blacked and drying on the hard ready for the crane"]),
               dict(acts=["renew the boat safety certificate", "book the safety examiner for the boat"],
                    opens=["uh still waiting on the safety examiner to give us a slot"],
                    done=["the safety certificate came through we passed everything bar a loose gas clip",
                          "examiner signed us off on {day} so the certificate's good for another stretch", "we've got a shiny new safety certificate pinned up in the cabin"]),
               dict(acts=["replace the leaky window seals", "fix the drip over the galley window"],
                    opens=["the galley window still drips every time it rains"],
                    done=["new seals on all the windows and the galley stayed dry in that storm",
                          "no more drip over the galley the seal's been redone", "the window seals are all new and it's bone dry inside"]),
               dict(acts=["pay the canal licence", "get the canal licence renewed online"],
                    opens=["the canal licence runs out soon and I haven't touched it"],
                    done=["the licence sticker for {boat} arrived and it's in the window",
                          "licence is paid up for the year I've got the confirmation email", "the canal licence is sorted for another year the payment went out {day}"])],
        asks=[("how often does a narrowboat hull need blacking",
               "Typically every two to three years, depending on the coating used and how much the boat cruises."),
              ("first time going through a lock this weekend um any tips",
               "Go slowly, keep the boat away from the cill at the back, never leave windlasses on the paddle "
               "spindles, and watch the boat rather than the gates."),
              ("my hands are black from the engine bay and won't come clean", "Some washing-up liquid mixed with "
               "sugar works as a scrub, or a proper mechanics' hand cleaner."),
              ("a duck tried to get into the boat through the hatch", "Sounds like you've got a stowaway "
               "candidate. Maybe keep the hatch shut when you pop out.")],
        maybe=["if we'd bought one already done up we'd be cruising by now but where's the fun",
               "in a perfect world I'd live on it full time",
               "what's the name of the handle thing you use to open the lock paddles"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "okay correcting myself here {topic} is {v} not {old} sorry about that", (), "any"),
    ("explicit", "small correction {say} I had {old} in my head for some reason", (), "any"),
    ("explicit", "can you fix that {topic} is {v} I told you wrong before", (), "any"),
    ("actually", "oh actually um {say}", (), "any"),
    ("actually", "actually hold on {say} not what I said earlier", (), "any"),
    ("actually", "uh actually no it's {v} for {topic}", (), "same"),
    ("misspoke", "I misspoke there {say}", (), "any"),
    ("misspoke", "no wait I misspoke {topic} is {v} not {old} my brain is mush today", (), "any"),
    ("misspoke", "sorry that came out wrong {say}", (), "same"),
    ("misspoke", "hang on I said that wrong it's {v} - {old} was the other thing", (), "same"),
    ("change", "so um change of plans {say} now", (), "later"),
    ("change", "okay things have changed {say} instead of {old} long story", (), "later"),
    ("change", "right so that plan fell through {say}", (), "later"),
    ("moved", "they moved {topic} to {v} so yeah", ("date", "place"), "later"),
    ("moved", "{Topic} got bumped to {v} which is annoying", ("date",), "later"),
    ("moved", "we shifted {topic} over to {v} in the end", ("date", "place"), "later"),
    ("is-now", "heads up {topic} is now {v} instead of {old}", (), "later"),
    ("is-now", "oh and so you know {topic} is {v} now", (), "later"),
    ("is-now", "so {topic} is {v} these days not {old}", (), "later"),
    ("scratch", "scratch that {say}", (), "same"),
    ("scratch", "uh scratch what I said about {topic} {say}", (), "any"),
    ("scratch", "no wait make that {v}", (), "same"),
    ("scratch", "make that {v} sorry not {old}", (), "same"),
    ("implicit", "{Say}", (), "later"),
    ("implicit", "so I just got off the phone and {say}", (), "later"),
    ("implicit", "okay um {say} as of this morning", (), "later"),
    ("implicit", "right so news {say}", (), "later"),
    ("updated", "update on {topic} {say}", (), "later"),
    ("updated", "little update {topic} went from {old} to {v}", (), "later"),
    ("updated", "okay new info {topic} is {v} they changed it from {old}", (), "later"),
]

LOOP_OPEN = ["gotta {act} {due} somehow", "I should really {act} {due}", "remind me to um {act}",
             "oh I need to {act} {due} can you hang on to that", "make a note I'm supposed to {act} {due}",
             "uh can you put down that I've got to {act}", "I told them I would {act} {due}",
             "somebody has to {act} and it's gonna be me isn't it", "my big job for this week is to {act}",
             "don't let me like forget I have to {act}", "okay action item for me {act} {due}",
             "I keep meaning to {act} and then just not doing it", "add to my list {act} {due}",
             "so I still need to {act} at some point", "um I've been putting off having to {act} but I gotta",
             "note for me {act} {due} thanks", "right I have to {act} {due} or I'll be in trouble",
             "can you nag me to {act} {due}", "I'm gonna have to {act} aren't I",
             "put it on the list I need to {act}", "oh god I still haven't managed to {act}",
             "{act} that's on me {due}", "keep on at me till I {act} {due}"]
DUES = ["before like Thursday", "by the weekend hopefully", "first thing tomorrow", "at some point this week",
        "before Wednesday", "by tonight ideally", "before the end of next week", "this weekend",
        "before I forget again", "within the next few days or so"]

ACK = ["Okay, that's noted down.", "Got it, thanks.", "Right, understood.", "Okay, sounds like a plan.", "Good to hear.",
       "Thanks, I've got it.", "Fair enough.", "That makes a lot of sense.", "Okay! Anything else on that front?",
       "Understood, thanks for keeping me posted."]
ACK_VALUE = ["Okay, so {topic} is {v}.", "Noted, {v} for {topic}.", "Got it: {topic}, {v}.",
             "Right, I'll remember {topic} is {v}.", "Thanks, {v} it is."]
ACK_CHANGE = ["Okay, I've changed {topic} to {v}.", "No problem, {v} rather than {old}.",
              "Updated, {topic} is now {v} instead of {old}.", "Got it, switching to {v}."]
ACK_TODO = ["Okay, I'll hold on to that for you.", "It's on your list now.", "Noted, I'll remind you.",
            "Added that as something to do."]
ACK_DONE = ["Lovely, that one's handled then.", "Great, I'll take that off your list.", "Brilliant, ticked off.",
            "Nice work, that's one fewer thing."]

OPENERS = ["okay hi", "um hey it's me again", "hi so {short}", "okay talking about {short} again",
           "hey quick thing about {short}", "hi sorry I'm walking so this might be garbled", "um good morning",
           "hello okay where was I", "hey um I'm in the car", "okay I've got five minutes go",
           "right so {short} update", "hiya"]
GREETINGS = ["Hi {me}, I'm listening.", "Hey {me}, what's happening?", "Hello! What's going on?", "Hi, I'm here.",
             "Morning {me}, what do you need?", "Hey, good to hear from you. Go ahead."]
CLOSERS = ["okay that's all I've got thanks", "cool cool thanks bye", "alright I'm at the shop now bye",
           "great thank you", "okay gotta go talk later", "thanks that's everything for now"]
GOODBYES = ["Look after yourself, {me}.", "Speak later!", "Bye! Good luck with it all.", "Good luck with it all, truly.",
            "Chat soon!"]
FILLERS = [("um", "No hurry, I'm listening."), ("oh hang on the doorbell just went", "Go get it, I'll be here."),
           ("sorry the signal cut out", "No worries, I'm still here."), ("haha", "😊"), ("yeah yeah", "Alright then."),
           ("what was I on about", "Last thing you mentioned was {short}."), ("cheers", "Always happy to chat."),
           ("hold on let me pull over", "Of course, no rush.")]
RECAP_ASKS = ["can you tell me where we are with {short}", "okay give me the rundown",
              "what's the state of {short} right now", "um summarise {short} for me"]
RECAP_TODO = ["Yet to tick off: {todo}", "Hanging over you still: {todo}", "You still have: {todo}"]
RECAP = ["So, {short} at a glance: {body}.", "Where it all stands: {body}.", "The rundown so far: {body}.",
         "Briefly: {body}."]
LEADS = ["okay so about {short} ", "um update on {short} ", "so um ", "right okay ", "just so you know "]
LOWER_OK = (r"(?:We|The|Our|My|So|Okay|Oh|Uh|Um|Right|Just|Little|Heads|Actually|Small|Can|No|Make|Sorry|Hang|"
            r"Scratch|Update|Gotta|Remind|Add|Note|Somebody|Don't|They|His|Her|Dad's|First|Pick|Top|Tickets|"
            r"Opening|Curtain|Home|Pitch|Breed|Everyone|Cheapest|Pitch|Home|It's|He|Breed|Last)\b")
JOINERS = [" and um also ", " oh and uh ", " and um ", " and another thing "]

PERSONAL = [("identity", "I do the admin side at {employer} it's mostly spreadsheets"),
            ("identity", "I live in {city} have done for ages"),
            ("relationship", "my partner {partner} works shifts at the fire station"),
            ("relationship", "my cousin {cousin} is basically my best friend we talk every day"),
            ("preference", "I don't eat pork just so you know for recipes and stuff"),
            ("preference", "keep it short when you answer I'm usually driving or walking"),
            ("preference", "I'm useless before ten in the morning don't schedule anything then"),
            ("relationship", "our cat {pet} thinks he owns the whole street"),
            ("identity", "I grew up on a farm so I'm not squeamish about much"),
            ("preference", "I really can't do spicy food my mouth just gives up"),
            ("event", "{partner} and I went up north for a wedding and I'm still shattered"),
            ("identity", "English is my second language so sometimes the phone mishears me")]

CHITCHAT = [("whats a good audiobook for a long train ride", "A gripping mystery with a good narrator is "
             "hard to beat, or a funny memoir if you want something lighter."),
            ("its chucking it down out there", "Sounds like a day for a hot drink and staying dry."),
            ("I think I had about four coffees already", "Maybe switch to water for a bit, your heart will "
             "thank you."),
            ("what can I make with eggs and a sad bit of spinach", "A quick frittata or a spinach omelette, "
             "ten minutes and one pan."),
            ("tell me a weird animal fact", "A snail can sleep for a very long stretch if the weather is too dry for it."),
            ("why do I always get tired at like three in the afternoon", "It's a common dip in alertness after "
             "lunch. A short walk or some daylight helps."),
            ("my sourdough came out flat as a pancake again", "Usually that's an underactive starter or "
             "over-proofing. Try feeding the starter twice the day before."),
            ("is it too early for Christmas music", "There's no law against it, though your neighbours might have "
             "opinions."),
            ("I can't decide weather to go for a run or have a bath", "Run first, bath after. Best of both."),
            ("what's the deal with daylight saving anyway", "It started as a way to make better use of evening "
             "light; plenty of people now argue it isn't worth the disruption."),
            ("the seagulls here are absolutely feral", "They really are bold. Keep an eye on your chips."),
            ("I finally fixed the dripping tap", "Very satisfying. Enjoy the silence."),
            ("what should I watch tonight something light", "A feel-good comedy series with short episodes is "
             "perfect for a light evening."),
            ("my knees crack every time I stand up is that normal", "Painless clicking is usually harmless; if "
             "it hurts or swells, it's worth getting checked."),
            ("how do I get a red wine stain out of a carpet", "Blot, don't rub, then use cold water and a little "
             "washing-up liquid, working from the outside in."),
            ("I want to learn the ukulele is that silly", "Not at all, it's one of the friendliest instruments "
             "to start on."),
            ("their doing roadworks outside my house at seven in the morning", "That's a rough wake-up. Earplugs "
             "and a strong coffee might help."),
            ("whats a good name for a goldfish", "Captain Bubbles is a strong contender."),
            ("I walked into a lamppost while texting today", "Ouch! Hope the only injury was to your pride."),
            ("do you ever get bored", "Not really, there's always something new to talk about.")]
REQUESTS = [("can you write a quick message to {stranger} at {org} saying I'm running late for {day} and could "
             "we push back {n} minutes",
             "Here you go:\n\nHi {stranger},\n\nI'm running a little behind for {day}. Would it be okay to start "
             "{n} minutes later?\n\nThanks so much,\n{me}"),
            ("sum this up for me {org} says they had {big} complaints last year so {stranger} is asking to hire {n} "
             "extra people",
             "{org} logged {big} complaints last year, and {stranger} is asking for {n} more staff to handle them."),
            ("give me some names for a flower shop that {stranger} is opening",
             "Some ideas: {stranger}'s Stems, Petal Post, The Wild Bunch, Bloom Room, Root and Branch."),
            ("write a silly poem about a dog who stole {few} sandwiches",
             "A dog with a nose for a snack / stole {few} sandwiches off the rack; / he ate them with glee, / "
             "then blamed it on me, / and sat there demanding more back."),
            ("check the spelling on this dear {stranger} thank you for the {n} chairs you lent us on {day} they "
             "were definately appreciated",
             "'Dear {stranger}, many thanks for the {n} chairs you lent us on {day}. They were definitely "
             "appreciated.' Only 'definitely' needed fixing, plus some punctuation."),
            ("help me answer {stranger} who wants ${n} refunded over a broken kettle",
             "Hi {stranger}, sorry to hear about the kettle. I've arranged a refund of ${n}, which should reach "
             "you in a few working days."),
            ("how do you say where is platform {n} in Italian", "'Dov'è il binario {n}?'"),
            ("make this nicer {stranger} you haven't paid {org} the ${big} you owe",
             "'Hi {stranger}, a friendly reminder that there's still ${big} outstanding with {org}. Thanks!'"),
            ("um what do I need to bring for {few} nights under canvas",
             "A tent, a warm sleeping bag, a sleeping mat, a torch, layers and a waterproof, {few} days of socks, a stove and "
             "fuel, water bottle, first aid kit and bin bags."),
            ("explain what a mortgage is like I'm ten",
             "It's when a bank lends you most of the money for a house, and you pay them back a bit every month "
             "for many years, with some extra on top as the price of borrowing.")]
DISTRACTORS = ["if I did everything I'm meant to do I'd need like {few} of me",
               "what's that app called where you scan receipts",
               "I honestly don't understand how pensions work at all",
               "I should probably drink more water but who actually does",
               "one day I'll learn how to sail a boat probably never",
               "I already sorted the gas bill last month so that's fine",
               "it'd be nice if the dishwasher didn't make that noise",
               "the garage needs a clear out but the sofa is calling my name",
               "in theory I'd go to bed earlier but there's always one more episode",
               "oh I already renewed the TV licence ages ago",
               "no need to remind me about the bins my neighbour always does it",
               "someday I'll by a campervan and just disappear for a year",
               "my sister keeps saying I should take up yoga which like no thank you",
               "I already booked the dentist for the kids so don't worry about that"]
UNSURE = ["I don't believe that's come up between us yet.", "Hmm, that hasn't come up yet.",
          "I don't have that one, sorry.", "You haven't told me that so far, I'm afraid."]
SHRUG = ["Ha, fair.", "Can't say I blame you.", "Very relatable.", "Same, honestly.", "Totally get it."]
SUGGEST = [("what am I missing", "Maybe check everyone's got the right dates before {day}, and send a quick "
            "message to confirm."),
           ("what do you think", "Sleeping on it before deciding rarely hurts, though you're the one who knows the details."),
           ("if it was you what would you do", "Personally I'd block out an hour on {day} and work through it one piece at a time."),
           ("any other thoughts", "A simple shared list might stop things slipping through; want me to start one?")]
